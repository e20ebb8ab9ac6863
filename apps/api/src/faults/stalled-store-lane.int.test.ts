import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startWorkerProcess, type StallingProxy, type WorkerProcess } from '@prodshot/testing';
import { eventually, signIn, upload, type Session } from '../seller-client.test-support.js';
import type { TestApp } from '../test-app.test-support.js';
import { appBehindStallingStore, sellerCutout } from './fault-support.test-support.js';

const stack = inject('stack');
let proxy: StallingProxy;
let testApp: TestApp;
let worker: WorkerProcess;
let session: Session;
let imageId: string;

beforeAll(async () => {
  // A store call that stalls waits out the whole test rather than failing and freeing its job's place.
  ({ proxy, testApp } = await appBehindStallingStore(stack, { storageTimeoutMs: 120_000, bucket: 'lane' }));
  session = await signIn(testApp, `stalled-lane-${Date.now()}@example.com`, 'growth');
  imageId = (await upload(testApp, session, await sellerCutout('#553'), 'jar.png')).json()._id;
  // One interactive engine thread: the lane holds more jobs than threads, or a stuck one holds it all.
  worker = await startWorkerProcess({ ...testApp.env, WORKER_INTERACTIVE_CONCURRENCY: '1' });
  const subjectStatus = async () =>
    (await testApp.app.inject({ method: 'GET', url: `/api/images/${imageId}/subject`, headers: session.auth })).json()
      .data.status;
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
    const recommendations = testApp.app.inject({
      method: 'POST',
      url: '/api/images/generate-product-style-recommendations',
      headers: session.auth,
      payload: { imageId },
    });
    const interactive = testApp.deps.producer.queue('interactive');
    await eventually(
      async () => (await interactive.getActiveCount()) >= 1,
      30_000,
      'the recommendation job to be taken',
    );

    const enhance = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/enhance-prompt',
      headers: session.auth,
      payload: { prompt: 'Beach sunset' },
    });

    expect(enhance.statusCode, enhance.body).toBe(200);
    expect(enhance.json().data.enhancedPrompt).toBeTruthy();
    expect(await interactive.getActiveCount(), 'the recommendation is still waiting on the store').toBe(1);
    proxy.resume();
    expect((await recommendations).statusCode).toBe(200);
  }, 150_000);
});
