import { createServer } from 'node:net';
import { afterEach, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import {
  connectSocket,
  eventually,
  grantCredits,
  signIn,
  upload,
  type ClientSocket,
  type Session,
} from '../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp | undefined;
let worker: WorkerProcess | undefined;
let socket: ClientSocket | undefined;

afterEach(async (context) => {
  if (context.task.result?.state === 'fail' && worker) console.error(worker.output().slice(-4000));
  socket?.disconnect();
  await worker?.stop('SIGKILL');
  await testApp?.close();
  testApp = undefined;
  worker = undefined;
  socket = undefined;
});

async function scrape(app: TestApp): Promise<string> {
  const response = await app.ops.inject({ method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('text/plain');
  return response.body;
}

/** The value of the one sample of `name` whose labels include every pair given. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text
    .split('\n')
    .find((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && wanted.every((pair) => l.includes(pair)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

const waiting = (text: string) => sample(text, 'prodshot_queue_jobs', { queue: 'render', state: 'waiting' });

async function productPhoto(): Promise<Buffer> {
  const bottle = await sharp({
    create: { width: 220, height: 480, channels: 4, background: { r: 200, g: 60, b: 40, alpha: 1 } },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width: 800, height: 800, channels: 3, background: '#f4f4f4' } })
    .composite([{ input: bottle, left: 290, top: 160 }])
    .jpeg()
    .toBuffer();
}

async function uploadPhoto(app: TestApp, session: Session): Promise<string> {
  const uploaded = await upload(app, session, await productPhoto(), 'bottle.jpg');
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  return uploaded.json<{ _id: string }>()._id;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('GET /metrics on the api', () => {
  it('exposes HTTP latency per route, queue depth per queue and socket connections, without user auth', async () => {
    testApp = await buildTestApp(stack, { listen: true });
    const session = await signIn(testApp, 'metrics@example.com');
    ({ socket } = await connectSocket(testApp, session.token));
    expect((await testApp.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    const text = await scrape(testApp);
    expect(
      sample(text, 'prodshot_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/health',
        status: '200',
      }),
    ).toBe(1);
    for (const queue of ['render', 'interactive', 'webhooks']) {
      for (const state of ['waiting', 'active', 'delayed', 'failed'])
        expect(sample(text, 'prodshot_queue_jobs', { queue, state }), `${queue} ${state}`).toBe(0);
    }
    expect(sample(text, 'prodshot_socket_connections')).toBe(1);
    expect(sample(text, 'prodshot_credits_reserved_total')).toBe(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('shows the render queue depth rising while jobs wait and falling after a worker drains them', async () => {
    testApp = await buildTestApp(stack);
    const session = await signIn(testApp, 'depth@example.com');
    await grantCredits(testApp, session.userId, 10);
    const imageId = await uploadPhoto(testApp, session);
    const seen: number[] = [waiting(await scrape(testApp))!];

    // No worker yet: every accepted job waits in Redis.
    const generationIds: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/api/images/generate-product-shots',
        headers: { ...session.auth, prefer: 'respond-async' },
        payload: { imageId, prompt: 'Wooden table', count: 1 },
      });
      expect(response.statusCode, response.body).toBe(202);
      generationIds.push(response.json<{ data: { generationId: string } }>().data.generationId);
      seen.push(waiting(await scrape(testApp))!);
    }
    expect(sample(await scrape(testApp), 'prodshot_credits_reserved_total')).toBe(3);

    const healthPort = await freePort();
    worker = await startWorkerProcess({ ...testApp.env, WORKER_HEALTH_PORT: String(healthPort) });
    const drained = await eventually(
      async () => {
        const text = await scrape(testApp!);
        const value = waiting(text)!;
        if (value !== seen.at(-1)) seen.push(value);
        return value === 0 && sample(text, 'prodshot_queue_jobs', { queue: 'render', state: 'active' }) === 0
          ? text
          : undefined;
      },
      60_000,
      'the worker to drain the render queue',
    );
    expect(seen.slice(0, 4)).toEqual([0, 1, 2, 3]);
    expect(seen.at(-1)).toBe(0);
    expect(sample(drained, 'prodshot_queue_jobs', { queue: 'render', state: 'failed' })).toBe(0);
    for (const id of generationIds) {
      const response = await testApp.app.inject({
        method: 'GET',
        url: `/api/generations/${id}`,
        headers: session.auth,
      });
      expect(response.json<{ data: { status: string } }>().data.status).toBe('complete');
    }

    // The worker's own endpoint carries the job side: durations by job name and refunds (none here).
    const workerText = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
    expect(
      sample(workerText, 'prodshot_job_duration_seconds_count', { job: 'product-shot', outcome: 'completed' }),
    ).toBe(3);
    expect(sample(workerText, 'prodshot_credits_refunded_total')).toBe(0);
  });
});
