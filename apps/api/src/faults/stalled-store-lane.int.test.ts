import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStallingProxy, startWorkerProcess, uniqueName, type StallingProxy, type WorkerProcess } from '@prodshot/testing';
import { eventually, signIn, upload, type Session } from '../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';
import { sellerCutout } from './fault-support.test-support.js';

const stack = inject('stack');
let proxy: StallingProxy;
let testApp: TestApp;
let worker: WorkerProcess;
let session: Session;
let imageId: string;

beforeAll(async () => {
  proxy = await startStallingProxy({ host: stack.s3.endPoint, port: stack.s3.port });
  // A store call that stalls waits out the whole test rather than failing and freeing its job's place.
  testApp = await buildTestApp(stack, {
    env: {
      MINIO_ENDPOINT: '127.0.0.1',
      MINIO_PORT: String(proxy.port),
      MINIO_ACCESS_KEY: stack.s3.accessKey,
      MINIO_SECRET_KEY: stack.s3.secretKey,
      MINIO_REGION: stack.s3.region,
      MINIO_BUCKET: uniqueName('lane').replaceAll('_', '-').toLowerCase(),
      STORAGE_TIMEOUT_MS: '120000',
    },
  });
  session = await signIn(testApp, `stalled-lane-${Date.now()}@example.com`, 'growth');
  imageId = (await upload(testApp, session, await sellerCutout('#553'), 'jar.png')).json()._id;
  // One interactive engine thread: the lane holds more jobs than threads, or a stuck one holds it all.
  worker = await startWorkerProcess({ ...testApp.env, WORKER_INTERACTIVE_CONCURRENCY: '1' });
  const subjectStatus = async () => (await testApp.app.inject({ method: 'GET', url: `/api/images/${imageId}/subject`, headers: session.auth })).json().data.status;
  await eventually(async () => (await subjectStatus()) === 'ready', 60_000, 'the upload to be analysed');
}, 120_000);

afterAll(async () => {
  proxy?.resume();
  await worker?.stop('SIGKILL');
  await testApp?.close();
  await proxy?.close();
});

describe('an interactive job stuck on a stalled object store', () => {
  it('leaves the interactive lane free: a prompt is enhanced while the recommendation still waits on the store', async () => {
    proxy.stall();
    const recommendations = testApp.app.inject({ method: 'POST', url: '/api/images/generate-product-style-recommendations', headers: session.auth, payload: { imageId } });
    const interactive = testApp.deps.producer.queue('interactive');
    await eventually(async () => (await interactive.getActiveCount()) >= 1, 30_000, 'the recommendation job to be taken');

    const enhance = await testApp.app.inject({ method: 'POST', url: '/api/images/enhance-prompt', headers: session.auth, payload: { prompt: 'Beach sunset' } });

    expect(enhance.statusCode, enhance.body).toBe(200);
    expect(enhance.json().data.enhancedPrompt).toBeTruthy();
    expect(await interactive.getActiveCount(), 'the recommendation is still waiting on the store').toBe(1);
    proxy.resume();
    expect((await recommendations).statusCode).toBe(200);
  }, 150_000);
});
