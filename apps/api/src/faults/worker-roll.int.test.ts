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

describe('rolling a worker (SIGTERM) during a smart generation', () => {
  it('finishes what it holds, exits 0, and the next worker completes the rest: no style lost, none twice', async () => {
    testApp = await buildTestApp(stack, { listen: true });
    const session = await signIn(testApp, 'roll@example.com');
    await grantCredits(testApp, session.userId, 4);
    const imageId = (await upload(testApp, session, await productPhoto('#36c'), 'box.jpg')).json()._id;
    const connected = await connectSocket(testApp, session.token);
    socket = connected.socket;
    const old = await startWorkerProcess({ ...testApp.env, WORKER_CONCURRENCY: '1' });
    workers.push(old);
    const generationId = await startSmart(testApp, session, imageId);

    await eventually(
      () => connected.events.find((e) => e.event === 'generation:style' && e.payload.status === 'running'),
      60_000,
      'a style to run',
    );
    const stopping = old.stop('SIGTERM');
    workers.push(await startWorkerProcess({ ...testApp.env, WORKER_CONCURRENCY: '1' }));
    await stopping;
    expect(await old.exited).toEqual({ code: 0, signal: null });
    expect(old.output()).toContain('worker stopped');

    const final = await settled(testApp, generationId, 90_000);
    expect(final).toEqual({ status: 'complete', styles: ['complete', 'complete', 'complete', 'complete'] });
    await expectChargedOnce(testApp, generationId, 4);
    expect(await balanceOf(testApp, session.userId)).toBe(0);
    const completes = connected.events.filter((e) => e.event === 'generation:style' && e.payload.status === 'complete');
    expect(completes.map((e) => e.payload.index).sort()).toEqual([0, 1, 2, 3]);
  });

  it('a SIGTERM while the worker is still starting stops it cleanly once started, not by the signal', async () => {
    testApp = await buildTestApp(stack);
    const starting = await startWorkerProcess(testApp.env, { until: 'worker starting' });
    workers.push(starting);
    await starting.stop('SIGTERM');
    expect(await starting.exited).toEqual({ code: 0, signal: null });
    expect(starting.output()).toContain('worker stopped');
  });
});
