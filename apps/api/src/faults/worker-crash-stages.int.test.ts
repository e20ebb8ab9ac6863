import { afterEach, describe, expect, inject, it } from 'vitest';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import {
  balanceOf,
  connectSocket,
  eventually,
  grantCredits,
  signIn,
  upload,
  type ClientSocket,
  type RecordedEvent,
} from '../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';
import { expectChargedOnce, productPhoto, settled, startSmart } from './fault-support.test-support.js';

const stack = inject('stack');
let testApp: TestApp | undefined;
let workers: WorkerProcess[] = [];
let socket: ClientSocket | undefined;

afterEach(async () => {
  socket?.disconnect();
  await Promise.all(workers.map((w) => w.stop('SIGKILL')));
  await testApp?.close();
  workers = [];
  testApp = undefined;
});

type StagePredicate = (event: RecordedEvent) => boolean;

const STAGES: [string, StagePredicate][] = [
  ['analyse', (e) => e.event === 'generation:stage' && e.payload.stage === 'analysing'],
  ['recommend', (e) => e.event === 'generation:stage' && e.payload.stage === 'designing recommendations'],
  ['style', (e) => e.event === 'generation:style' && e.payload.status === 'running'],
  [
    'upload of result',
    (e) => e.event === 'generation:style' && e.payload.status === 'progress' && e.payload.progress === 90,
  ],
];

describe('a worker SIGKILLed at each stage of a smart generation', () => {
  it.each(STAGES)('at %s: a second worker completes it exactly once', async (_stage, reached) => {
    testApp = await buildTestApp(stack, { listen: true });
    const env = { ...testApp.env, WORKER_LOCK_DURATION_MS: '2000', WORKER_CONCURRENCY: '1' };
    const session = await signIn(testApp, `crash-${_stage.replace(/\W/g, '')}@example.com`);
    await grantCredits(testApp, session.userId, 4);
    const imageId = (await upload(testApp, session, await productPhoto(), 'box.jpg')).json()._id;
    const connected = await connectSocket(testApp, session.token);
    socket = connected.socket;
    const first = await startWorkerProcess(env);
    workers.push(first);
    const generationId = await startSmart(testApp, session, imageId);

    await eventually(() => connected.events.find(reached), 60_000, `stage ${_stage}`);
    await first.stop('SIGKILL');
    workers.push(await startWorkerProcess(env));

    const final = await settled(testApp, generationId, 90_000);
    expect(final).toEqual({ status: 'complete', styles: ['complete', 'complete', 'complete', 'complete'] });
    await expectChargedOnce(testApp, generationId, 4);
    expect(await balanceOf(testApp, session.userId)).toBe(0);
  });
});
