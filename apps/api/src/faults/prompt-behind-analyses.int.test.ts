import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import { eventually, signIn, upload, type Session } from '../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';
import { productPhoto } from './fault-support.test-support.js';

const stack = inject('stack');
const UPLOADS = 8;
let testApp: TestApp;
let worker: WorkerProcess | undefined;
let session: Session;

beforeAll(async () => {
  testApp = await buildTestApp(stack);
  session = await signIn(testApp, `prompt-lane-${Date.now()}@example.com`, 'growth');
  // Uploads made while no worker runs: their analyses (a cutout each) are waiting when it starts.
  for (let n = 0; n < UPLOADS; n += 1) {
    const response = await upload(
      testApp,
      session,
      await productPhoto(`#${(n + 2).toString(16)}6${(n + 3).toString(16)}`),
      `product-${n}.jpg`,
    );
    expect(response.statusCode, response.body).toBe(201);
  }
}, 120_000);

afterAll(async () => {
  await worker?.stop('SIGKILL');
  await testApp?.close();
});

describe('a prompt enhancement sent while upload analyses fill the interactive lane', () => {
  it('is taken before the analyses still waiting, and runs without waiting for an engine thread', async () => {
    const interactive = testApp.deps.producer.queue('interactive');
    // One interactive engine thread, so every analysis the lane holds queues for it.
    worker = await startWorkerProcess({ ...testApp.env, WORKER_INTERACTIVE_CONCURRENCY: '1' });
    await eventually(async () => (await interactive.getActiveCount()) >= 2, 60_000, 'the worker to take analyses');

    const enhance = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/enhance-prompt',
      headers: session.auth,
      payload: { prompt: 'Beach sunset' },
    });
    expect(enhance.statusCode, enhance.body).toBe(200);
    const analysesIn = async (state: 'waiting' | 'completed') =>
      (await interactive.getJobs([state], 0, -1)).filter((job) => job.name === 'analyse-upload');
    expect((await analysesIn('waiting')).length, 'analyses still waiting when the prompt was answered').toBeGreaterThan(
      0,
    );

    await eventually(
      async () => (await analysesIn('completed')).length === UPLOADS,
      120_000,
      'every analysis to finish',
    );
    const finished = await interactive.getJobs(['completed'], 0, -1);
    const prompt = finished.find((job) => job.name === 'enhance-prompt')!;
    const analysesFinishedMeanwhile = finished.filter(
      (job) =>
        job.name === 'analyse-upload' && job.finishedOn! > prompt.processedOn! && job.finishedOn! < prompt.finishedOn!,
    );
    expect(
      analysesFinishedMeanwhile.map((job) => job.id),
      'analyses that finished while the prompt ran',
    ).toEqual([]);
  }, 240_000);
});
