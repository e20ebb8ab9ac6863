import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { GenerationDto } from '@prodshot/contracts';
import { corpusFile } from '@prodshot/fixtures';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import {
  balanceOf,
  connectSocket,
  eventually,
  grantCredits,
  signIn,
  upload,
  type ClientSocket,
} from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
const shoe = corpusFile('products', 'saleor-blue-plimsolls-1.png');

let testApp: TestApp | undefined;
let workers: WorkerProcess[] = [];
let sockets: ClientSocket[] = [];

afterEach(async (context) => {
  // A failing run shows what the workers said.
  if (context.task.result?.state === 'fail') for (const worker of workers) console.error(worker.output().slice(-4000));
  for (const socket of sockets) socket.disconnect();
  await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
  await testApp?.close();
  testApp = undefined;
  workers = [];
  sockets = [];
});

async function generation(app: TestApp, token: string, id: string): Promise<GenerationDto> {
  const response = await app.app.inject({
    method: 'GET',
    url: `/api/generations/${id}`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: GenerationDto }>().data;
}

async function startSmart(app: TestApp, token: string, imageId: string): Promise<string> {
  const response = await app.app.inject({
    method: 'POST',
    url: '/api/images/smart-generate-product-shots',
    headers: { authorization: `Bearer ${token}` },
    payload: { imageId, styleCount: 4 },
  });
  expect(response.statusCode, response.body).toBe(202);
  return response.json<{ data: { generationId: string } }>().data.generationId;
}

async function ledgerRows(app: TestApp, generationId: string) {
  return app.deps.db
    .selectFrom('credit_ledger')
    .select(['kind', 'subscription_delta', 'addon_delta', 'idempotency_key'])
    .where('generation_id', '=', generationId)
    .execute();
}

describe('smart generation end to end (API + real worker processes + Postgres + Redis + storage)', () => {
  it('turns one upload into four stored styles, pushed live, for exactly four credits', async () => {
    testApp = await buildTestApp(stack, { listen: true });
    const session = await signIn(testApp, 'seller@example.com');
    await grantCredits(testApp, session.userId, 10);
    workers.push(await startWorkerProcess(testApp.env));
    const { socket, events } = await connectSocket(testApp, session.token);
    sockets.push(socket);

    const uploaded = await upload(testApp, session, shoe);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const generationId = await startSmart(testApp, session.token, uploaded.json<{ _id: string }>()._id);

    await eventually(
      () => events.find((e) => e.event === 'generation:done' && e.payload.generationId === generationId),
      60_000,
      'generation:done',
    );
    const completes = events.filter(
      (e) =>
        e.event === 'generation:style' && e.payload.status === 'complete' && e.payload.generationId === generationId,
    );
    expect(completes.map((e) => e.payload.index).sort()).toEqual([0, 1, 2, 3]);
    const stages = events.filter((e) => e.event === 'generation:stage').map((e) => e.payload.stage);
    expect(stages).toEqual(['analysing', 'designing recommendations', 'generating']);

    const final = await generation(testApp, session.token, generationId);
    expect(final.status).toBe('complete');
    expect(final.styles).toHaveLength(4);
    expect(final.styles.every((s) => s.status === 'complete' && s.url)).toBe(true);
    for (const style of final.styles) {
      const image = await testApp.app.inject({
        method: 'GET',
        url: new URL(style.url!).pathname + new URL(style.url!).search,
      });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
    }
    expect(await balanceOf(testApp, session.userId)).toBe(6);
    expect(events.some((e) => e.event === 'credits:update')).toBe(true);
  });

  it('finishes a style whose worker was killed mid-job on a second worker, charging once', async () => {
    testApp = await buildTestApp(stack, { listen: true });
    const env = { ...testApp.env, WORKER_LOCK_DURATION_MS: '2000', WORKER_CONCURRENCY: '1' };
    const session = await signIn(testApp, 'crash@example.com');
    await grantCredits(testApp, session.userId, 4);
    const first = await startWorkerProcess(env);
    workers.push(first);
    const { socket, events } = await connectSocket(testApp, session.token);
    sockets.push(socket);
    const uploaded = await upload(testApp, session, shoe);
    const generationId = await startSmart(testApp, session.token, uploaded.json<{ _id: string }>()._id);

    await eventually(
      () => events.find((e) => e.event === 'generation:style' && e.payload.status === 'running'),
      60_000,
      'a style to start running',
    );
    await first.stop('SIGKILL');
    workers.push(await startWorkerProcess(env));

    const final = await eventually(
      async () => {
        const current = await generation(testApp!, session.token, generationId);
        return current.status === 'complete' || current.status === 'failed' ? current : null;
      },
      90_000,
      'the generation to settle after the crash',
    );
    expect(final.status).toBe('complete');
    expect(final.styles.map((s) => s.status)).toEqual(['complete', 'complete', 'complete', 'complete']);
    expect(await balanceOf(testApp, session.userId)).toBe(0);
    const rows = await ledgerRows(testApp, generationId);
    expect(rows.filter((r) => r.kind === 'reserve')).toHaveLength(1);
    expect(rows.filter((r) => r.kind === 'refund')).toHaveLength(0);
    expect(
      rows
        .filter((r) => r.kind === 'settle')
        .map((r) => r.idempotency_key)
        .sort(),
    ).toEqual([0, 1, 2, 3].map((i) => `settle:${generationId}:${i}`));
    // Its own waits allow 60 s for a style to start and 90 s to settle after the crash: the test as a whole gets both.
  }, 180_000);

  it('refunds a style whose output cannot be stored, keeps its error, and completes the others', async () => {
    testApp = await buildTestApp(stack, { listen: true });
    const session = await signIn(testApp, 'storage-fault@example.com');
    await grantCredits(testApp, session.userId, 4);
    const uploaded = await upload(testApp, session, shoe);
    const generationId = await startSmart(testApp, session.token, uploaded.json<{ _id: string }>()._id);
    // A folder where style 2's output file must go: every write of that one output fails, for real.
    const blocked = path.join(
      testApp.env.STORAGE_DIR!,
      'users',
      session.userId,
      'generations',
      generationId,
      '2.png',
      'blocker',
    );
    await mkdir(blocked, { recursive: true });
    workers.push(await startWorkerProcess(testApp.env));

    const final = await eventually(
      async () => {
        const current = await generation(testApp!, session.token, generationId);
        return current.status === 'complete' || current.status === 'failed' ? current : null;
      },
      90_000,
      'the generation to settle',
    );
    expect(final.status).toBe('complete');
    expect(final.styles.map((s) => s.status)).toEqual(['complete', 'complete', 'failed', 'complete']);
    expect(final.styles[2]!.error).toBe('Failed to generate product shots. Please try again.');
    expect(final.styles[2]!.url).toBeNull();
    expect(await balanceOf(testApp, session.userId)).toBe(1);
    const rows = await ledgerRows(testApp, generationId);
    expect(rows.filter((r) => r.kind === 'refund').map((r) => r.idempotency_key)).toEqual([`refund:${generationId}:2`]);
  });

  it('answers 402 with nothing enqueued when credits are short', async () => {
    testApp = await buildTestApp(stack);
    const session = await signIn(testApp, 'broke@example.com');
    await grantCredits(testApp, session.userId, 3);
    const uploaded = await upload(testApp, session, shoe);
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/smart-generate-product-shots',
      headers: session.auth,
      payload: { imageId: uploaded.json<{ _id: string }>()._id, styleCount: 4 },
    });
    expect(response.statusCode).toBe(402);
    expect(response.json().message).toContain('Not enough credits');
    expect(await balanceOf(testApp, session.userId)).toBe(3);
    // The upload's own analysis is the only job: the refused generation added none.
    const jobs = (
      await Promise.all(['render', 'interactive'].map((q) => testApp!.deps.producer.queue(q as 'render').getJobs()))
    ).flat();
    expect(jobs.map((job) => job.name)).toEqual(['analyse-upload']);
    const generations = await testApp.deps.db
      .selectFrom('generations')
      .select('id')
      .where('user_id', '=', session.userId)
      .execute();
    expect(generations).toHaveLength(0);
  });
});
