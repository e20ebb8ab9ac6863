import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { startWorkerProcess, type StallingProxy, type WorkerProcess } from '@prodshot/testing';
import { balanceOf, eventually, grantCredits, signIn, upload, type Session } from '../seller-client.test-support.js';
import type { TestApp } from '../test-app.test-support.js';
import { appBehindStallingStore, settled } from './fault-support.test-support.js';

const stack = inject('stack');
let proxy: StallingProxy;
let testApp: TestApp;
let worker: WorkerProcess;
let session: Session;
let imageId: string;

beforeAll(async () => {
  ({ proxy, testApp } = await appBehindStallingStore(stack, { storageTimeoutMs: 1000, bucket: 'hung' }));
  session = await signIn(testApp, 'hung-store@example.com');
  await grantCredits(testApp, session.userId, 2);
  // A seller's own cutout (its alpha is the cutout): the job's first store call is what stalls.
  const photo = await sharp({
    create: { width: 400, height: 400, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([
      {
        input: await sharp({ create: { width: 160, height: 260, channels: 3, background: '#553' } })
          .png()
          .toBuffer(),
        left: 120,
        top: 70,
      },
    ])
    .png()
    .toBuffer();
  imageId = (await upload(testApp, session, photo, 'jar.png')).json()._id;
  worker = await startWorkerProcess(testApp.env);
}, 120_000);

afterAll(async () => {
  await worker.stop('SIGKILL');
  await testApp.close();
  await proxy.close();
});

function start(): Promise<string> {
  return testApp.app
    .inject({
      method: 'POST',
      url: `/api/images/${imageId}/remove-background`,
      headers: { ...session.auth, prefer: 'respond-async' },
      payload: {},
    })
    .then((r) => r.json().data.generationId as string);
}

describe('an object store that stops answering', () => {
  it('fails the job after its retries and refunds it, instead of holding it active; once it answers again, work goes on', async () => {
    proxy.stall();
    const stuck = await start();
    expect(await balanceOf(testApp, session.userId)).toBe(1);
    expect(await settled(testApp, stuck, 60_000)).toEqual({ status: 'failed', styles: ['failed'] });
    expect(await balanceOf(testApp, session.userId)).toBe(2);

    proxy.resume();
    const next = await start();
    expect(await settled(testApp, next, 60_000)).toEqual({ status: 'complete', styles: ['complete'] });
    expect(await balanceOf(testApp, session.userId)).toBe(1);
    // By each generation's own job: the next one's settles in Postgres a moment before BullMQ files it completed.
    const render = testApp.deps.producer.queue('render');
    const stateOf = async (generationId: string) => (await render.getJob(generationId))?.getState();
    await eventually(async () => (await stateOf(stuck)) === 'failed', 10_000, 'the stuck job to be failed, not active');
    await eventually(async () => (await stateOf(next)) === 'completed', 10_000, 'the next job to be completed');
  }, 150_000);
});
