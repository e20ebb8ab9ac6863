import { afterEach, describe, expect, inject, it } from 'vitest';
import type { BatchDto, SubjectDto } from '@prodshot/contracts';
import { corpusFile } from '@prodshot/fixtures';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import { balanceOf, eventually, grantCredits, signIn, upload, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');

let testApp: TestApp | undefined;
let worker: WorkerProcess | undefined;

afterEach(async (context) => {
  // A failing run shows what the worker said.
  if (context.task.result?.state === 'fail' && worker) console.error(worker.output().slice(-4000));
  await worker?.stop('SIGKILL');
  await testApp?.close();
  testApp = undefined;
  worker = undefined;
});

async function subjectOf(app: TestApp, session: Session, imageId: string): Promise<SubjectDto> {
  return (await app.app.inject({ method: 'GET', url: `/api/images/${imageId}/subject`, headers: session.auth })).json<{
    data: SubjectDto;
  }>().data;
}

describe('a batch of the corpus apple-drink bottle (issue 32: the photo decides the kind, the title is a hint)', () => {
  it('titled "Apple drink", makes its shots: the upload reads no unsupported kind, and the title refuses nothing', async () => {
    const app = (testApp = await buildTestApp(stack, { listen: true }));
    worker = await startWorkerProcess(app.env);
    const session = await signIn(app, 'apple-drink@example.com');
    await grantCredits(app, session.userId, 4);

    const uploaded = await upload(app, session, corpusFile('products', 'saleor-apple-drink.png'));
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const imageId = uploaded.json<{ _id: string }>()._id;
    const subject = await eventually(
      async () => {
        const read = await subjectOf(app, session, imageId);
        return read.status === 'pending' ? null : read;
      },
      90_000,
      'the upload analysis',
    );
    expect(subject).toMatchObject({ status: 'ready', product: { kind: 'unknown', supported: true } });
    if (subject.outline?.needsConfirmation)
      await app.app.inject({ method: 'POST', url: `/api/images/${imageId}/outline/confirm`, headers: session.auth });

    const started = await app.app.inject({
      method: 'POST',
      url: '/api/batches',
      headers: session.auth,
      payload: { items: [{ imageId, productTitle: 'Apple drink' }], choice: { mode: 'smart', styleCount: 2 } },
    });
    expect(started.statusCode, started.body).toBe(202);
    const batchId = started.json<{ data: { batchId: string } }>().data.batchId;

    const settled = await eventually(
      async () => {
        const batch = (
          await app.app.inject({ method: 'GET', url: `/api/batches/${batchId}`, headers: session.auth })
        ).json<{ data: BatchDto }>().data;
        return batch.status === 'complete' || batch.status === 'failed' ? batch : null;
      },
      120_000,
      'the batch to settle',
    );
    expect(settled.items[0]).toMatchObject({ status: 'complete', error: null, productTitle: 'Apple drink' });
    expect(settled.items[0]!.outputs.map((output) => output.status)).toEqual(['complete', 'complete']);
    expect(await balanceOf(app, session.userId)).toBe(2);
  }, 240_000);
});
