import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { jobIds } from '@prodshot/queue';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import { balanceOf, eventually, grantCredits, signIn, upload, type Session } from '../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;
let worker: WorkerProcess | undefined;
let session: Session;
let imageId: string;

beforeAll(async () => {
  testApp = await buildTestApp(stack);
  session = await signIn(testApp, 'sweeper@example.com');
  await grantCredits(testApp, session.userId, 10);
  const photo = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#eeeeee' } })
    .composite([
      {
        input: await sharp({ create: { width: 200, height: 320, channels: 3, background: '#2a6' } })
          .png()
          .toBuffer(),
        left: 200,
        top: 140,
      },
    ])
    .jpeg()
    .toBuffer();
  imageId = (await upload(testApp, session, photo, 'box.jpg')).json()._id;
});

afterAll(async () => {
  await worker?.stop('SIGKILL');
  await testApp.close();
});

async function status(id: string) {
  const response = await testApp.app.inject({ method: 'GET', url: `/api/generations/${id}`, headers: session.auth });
  return response.json().data as {
    status: string;
    error: string | null;
    styles: { status: string; error: string | null }[];
  };
}

describe('the sweeper', () => {
  it('resolves a generation whose job vanished from Redis, refunding it, and leaves live ones alone', async () => {
    const start = (payload: object) =>
      testApp.app
        .inject({ method: 'POST', url: '/api/images/smart-generate-product-shots', headers: session.auth, payload })
        .then((r) => r.json().data.generationId as string);
    const lost = await start({ imageId, styleCount: 3 });
    const alive = await start({ imageId, styleCount: 2 });
    expect(await balanceOf(testApp, session.userId)).toBe(5);
    // Redis lost this job (a flush, a failover without persistence): nothing will ever run it.
    await testApp.deps.producer.queue('interactive').remove(jobIds.generation(lost));

    worker = await startWorkerProcess({ ...testApp.env, SWEEPER_INTERVAL_MS: '1000', SWEEPER_STALE_AFTER_MS: '1000' });
    const swept = await eventually(
      async () => {
        const current = await status(lost);
        return current.status === 'failed' ? current : null;
      },
      30_000,
      'the lost generation to be swept',
    );
    expect(swept.error).toBe('This generation was interrupted. Your credits were refunded.');
    await eventually(
      async () => (await status(alive)).status === 'complete',
      60_000,
      'the live generation to complete',
    );
    expect(await balanceOf(testApp, session.userId)).toBe(8);
  });
});
