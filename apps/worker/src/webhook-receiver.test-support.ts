import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'bullmq';
import { createRedisConnection, WORKER_SETTINGS } from '@prodshot/queue';
import type { WorkerDeps } from './deps.js';
import { createDispatcher } from './dispatch.js';
import { handlers } from './handlers/index.js';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

/** A local webhook receiver: records every request, answers as `answer` says (204 by default). */
export interface TestReceiver {
  url(path?: string): string;
  received: ReceivedWebhook[];
  answer: (request: ReceivedWebhook, response: ServerResponse) => void;
  /** Stops listening (the receiver is down) until `start` again, on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<TestReceiver> {
  let server: Server;
  let port = 0;
  const receiver: TestReceiver = {
    received: [],
    answer: (_request, response) => void response.writeHead(204).end(),
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    async start() {
      server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const received = {
            path: request.url ?? '',
            headers: request.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            at: Date.now(),
          };
          receiver.received.push(received);
          receiver.answer(received, response);
        });
      });
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    close: () => receiver.stop(),
  };
  await receiver.start();
  return receiver;
}

/** What a receiver does with `Prodshot-Signature`: recompute the HMAC over "t.body" and compare in constant time. */
export function verifySignature(secret: string, header: string, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'));
}

/** The worker's webhook lanes, as main.ts runs them, over the test deps' queue prefix. */
export function startWebhookWorker(deps: WorkerDeps, concurrency = 16): { worker: Worker; close(): Promise<void> } {
  const connection = createRedisConnection(deps.config.redis.url!, 'consumer', 'webhook-worker-test');
  const worker = new Worker('webhooks', createDispatcher(handlers, deps, { deadlineMs: deps.config.jobs.deadlineMs }), {
    connection,
    prefix: deps.config.redis.queuePrefix,
    concurrency,
    settings: WORKER_SETTINGS,
  });
  return {
    worker,
    async close() {
      await worker.close();
      connection.disconnect();
    },
  };
}

/** Polls until `check` holds or `timeoutMs` passes. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
