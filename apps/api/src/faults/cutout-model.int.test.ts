import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { SubjectDto } from '@prodshot/contracts';
import { freePort } from '@prodshot/embedded';
import { corpusFile } from '@prodshot/fixtures';
import { uploadCutoutKey } from '@prodshot/storage';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import { balanceOf, eventually, grantCredits, signIn, upload, type Session } from '../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');

let testApp: TestApp | undefined;
let worker: WorkerProcess | undefined;

afterEach(async (context) => {
  if (context.task.result?.state === 'fail' && worker) console.error(worker.output().slice(-4000));
  await worker?.stop('SIGKILL');
  await testApp?.close();
  worker = undefined;
  testApp = undefined;
});

async function subjectOf(app: TestApp, session: Session, imageId: string): Promise<SubjectDto> {
  return eventually(
    async () => {
      const response = await app.app.inject({
        method: 'GET',
        url: `/api/images/${imageId}/subject`,
        headers: session.auth,
      });
      expect(response.statusCode).toBe(200);
      const subject = response.json<{ data: SubjectDto }>().data;
      return subject.status === 'pending' ? undefined : subject;
    },
    60_000,
    'the upload to be analysed',
  );
}

/** Two corpus products far apart on a pale wall: either could be "the product". */
async function twoProducts(): Promise<{
  photo: Buffer;
  left: { x: number; y: number };
  right: { x: number; y: number };
}> {
  const shoe = await sharp(corpusFile('products', 'saleor-blue-plimsolls-1.png')).resize(420).toBuffer();
  const cap = await sharp(corpusFile('products', 'solidus_cap_red_1.png')).resize(360).toBuffer();
  const photo = await sharp({ create: { width: 1200, height: 700, channels: 3, background: '#ece6dc' } })
    .composite([
      { input: shoe, left: 40, top: 140 },
      { input: cap, left: 800, top: 170 },
    ])
    .jpeg({ quality: 85 })
    .toBuffer();
  return { photo, left: { x: 250 / 1200, y: 350 / 700 }, right: { x: 980 / 1200, y: 350 / 700 } };
}

describe('the cutout model in a worker (the shipped ISNet weights, end to end)', () => {
  it('asks for a tap when a photo holds two products, and cuts out the one tapped, once', async () => {
    testApp = await buildTestApp(stack);
    const session = await signIn(testApp, 'tapper@example.com');
    await grantCredits(testApp, session.userId, 2);
    worker = await startWorkerProcess(testApp.env);
    const { photo, left, right } = await twoProducts();
    const uploaded = (await upload(testApp, session, photo, 'two.jpg')).json<{ _id: string }>();
    const subject = await subjectOf(testApp, session, uploaded._id);
    expect(subject).toMatchObject({ status: 'ready', needsFocus: true });
    expect(subject.candidates.length).toBeGreaterThanOrEqual(2);

    const generate = () =>
      testApp!.app.inject({
        method: 'POST',
        url: '/api/images/generate-product-shots',
        headers: session.auth,
        payload: { imageId: uploaded._id, backgroundType: 'studio', count: 1, focus: right },
      });
    expect((await generate()).statusCode).toBe(200);
    const image = await testApp.deps.db
      .selectFrom('images')
      .select('storage_key')
      .where('id', '=', uploaded._id)
      .executeTakeFirstOrThrow();
    const key = uploadCutoutKey(image.storage_key, [{ ...right, keep: true }]);
    const cutout = await sharp(await testApp.deps.store.get(key))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const alphaAt = (point: { x: number; y: number }) =>
      cutout.data[
        (Math.round(point.y * cutout.info.height) * cutout.info.width + Math.round(point.x * cutout.info.width)) * 4 + 3
      ];
    expect(alphaAt(right)).toBe(255);
    expect(alphaAt(left)).toBe(0);
    // A second shot of the same tap reuses that cutout rather than making another.
    const made = (await testApp.deps.store.stat(key))!;
    expect((await generate()).statusCode).toBe(200);
    expect((await testApp.deps.store.stat(key))!).toEqual(made);
    expect(await balanceOf(testApp, session.userId)).toBe(0);
  });

  it('says a photo holds no product, and refuses to charge for an empty shot', async () => {
    testApp = await buildTestApp(stack);
    const session = await signIn(testApp, 'blank@example.com');
    await grantCredits(testApp, session.userId, 1);
    worker = await startWorkerProcess(testApp.env);
    const blank = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#bcbcbc' } })
      .jpeg()
      .toBuffer();
    const uploaded = (await upload(testApp, session, blank, 'wall.jpg')).json<{ _id: string }>();
    const subject = await subjectOf(testApp, session, uploaded._id);
    expect(subject).toMatchObject({ status: 'failed', error: expect.stringContaining('nothing to work with') });

    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/generate-product-shots',
      headers: session.auth,
      payload: { imageId: uploaded._id, backgroundType: 'marble', count: 1 },
    });
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toContain('nothing to work with');
    expect(await balanceOf(testApp, session.userId)).toBe(1);
  });

  it('takes no jobs when its model cannot be loaded, and says why on /health and in one line', async () => {
    testApp = await buildTestApp(stack);
    const junk = path.join(await mkdtemp(path.join(tmpdir(), 'prodshot-junk-')), 'model.onnx');
    await writeFile(junk, 'these bytes are not an ONNX graph');
    const healthPort = await freePort();
    worker = await startWorkerProcess(
      { ...testApp.env, CUTOUT_MODEL_PATH: junk, WORKER_HEALTH_PORT: String(healthPort) },
      { until: 'CUTOUT_MODEL_PATH' },
    );
    const health = await eventually(
      () => fetch(`http://127.0.0.1:${healthPort}/health`).catch(() => undefined),
      10_000,
      'the health endpoint',
    );
    expect(health.status).toBe(503);
    expect(((await health.json()) as { error: string }).error).toMatch(
      /^CUTOUT_MODEL_PATH: .*model\.onnx is not a usable salient-object graph/,
    );
    // Live all the same: a restart would load the same file, so the orchestrator keeps it out of service instead.
    expect((await fetch(`http://127.0.0.1:${healthPort}/live`)).status).toBe(200);
    expect(worker.output()).not.toContain('worker ready');

    const exiting = await startWorkerProcess(
      { ...testApp.env, CUTOUT_MODEL_PATH: junk },
      { until: 'CUTOUT_MODEL_PATH' },
    ).catch((error: Error) => error);
    const said = exiting instanceof Error ? exiting.message : exiting.output();
    expect(said).toContain('CUTOUT_MODEL_PATH:');
    if (!(exiting instanceof Error)) expect((await exiting.exited).code).toBe(1);
  });
});
