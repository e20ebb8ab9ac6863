import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, WebhookGuard } from '@prodshot/client';

/** A delivery the receiver accepted: signed with the endpoint's secret, recent, and not seen before. */
export interface ReceivedEvent {
  eventId: string;
  body: unknown;
}

export interface WebhookReceiver {
  /** The URL to register as the webhook endpoint. */
  url: string;
  /** The endpoint's secret, which registering the URL answers: deliveries before it are refused (400), and Prodshot sends them again. */
  trust(secret: string): void;
  /** Every event accepted, once each, in the order they came. */
  events: ReceivedEvent[];
  /** The next accepted event that `matches`, waiting for it up to `timeoutMs`. */
  next(matches: (event: ReceivedEvent) => boolean, timeoutMs: number): Promise<ReceivedEvent>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;

async function rawBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A local webhook endpoint on loopback: 400 for a delivery whose signature does not verify (or is
 * too old), 200 for a good one and for a repeat of an event already accepted (so the sender stops
 * retrying it), which is recorded once. It listens before it knows its secret, since the URL must
 * be registered to get one.
 */
export async function startWebhookReceiver(options: { toleranceSeconds?: number } = {}): Promise<WebhookReceiver> {
  let guard: WebhookGuard | undefined;
  const events: ReceivedEvent[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = request.method === 'POST' ? await rawBody(request) : undefined;
      const eventId = request.headers[EVENT_ID_HEADER.toLowerCase()];
      const verdict =
        body === undefined || !guard
          ? 'bad-signature'
          : guard.check({
              body,
              signature: request.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined,
              eventId: typeof eventId === 'string' ? eventId : undefined,
            });
      if (verdict === 'accepted') {
        events.push({ eventId: eventId as string, body: JSON.parse(body!) });
        for (const wake of waiters) wake();
      }
      response.writeHead(verdict === 'bad-signature' ? 400 : 200).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/prodshot`,
    trust(secret) {
      guard = new WebhookGuard(secret, options.toleranceSeconds);
    },
    events,
    async next(matches, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(matches);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching webhook within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
