import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { WebhookEvent, WebhookEventType } from '@prodshot/contracts';
import { webhookJobOptions } from '@prodshot/queue';
import {
  startReceiver,
  startWebhookWorker,
  eventually,
  verifySignature,
  type TestReceiver,
} from '../webhook-receiver.test-support.js';
import { buildWorkerDeps, jobOf, type TestWorkerDeps } from '../worker-deps.test-support.js';
import { deliverWebhook, postPinned, WEBHOOK_TIMEOUT_MS } from './deliver-webhook.js';

const stack = inject('stack');
const SECRET = 'whsec_delivery_test_secret';
let t: TestWorkerDeps;
let receiver: TestReceiver;
let lanes: ReturnType<typeof startWebhookWorker> | undefined;

beforeAll(async () => {
  t = await buildWorkerDeps(stack);
  receiver = await startReceiver();
});
afterEach(async () => {
  await lanes?.close();
  lanes = undefined;
  receiver.received.length = 0;
  receiver.answer = (_request, response) => void response.writeHead(204).end();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

let serial = 0;
/** A delivery of a fresh event to an endpoint at `url`. */
async function newDelivery(url: string, type: WebhookEventType = 'credits.low') {
  serial += 1;
  const userId = await t.newUser(0);
  const endpoint = await t.deps.repos.webhooks.createEndpoint({
    userId,
    url,
    events: [type],
    secret: SECRET,
    creditsLowThreshold: 5,
  });
  const event = {
    id: `evt_test_${serial}_${Date.now()}`,
    type: 'credits.low',
    createdAt: new Date().toISOString(),
    data: { balance: 1, threshold: 5 },
  } satisfies WebhookEvent;
  const [delivery] = await t.deps.repos.webhooks.recordEvent([endpoint.id], event);
  return { delivery: delivery!, event };
}

function row(id: string) {
  return t.deps.repos.webhooks.findDeliveryToSend(id);
}

describe('deliver-webhook', () => {
  it('POSTs the event as JSON with its id and a signature over "t.body" made with the endpoint secret', async () => {
    const { delivery, event } = await newDelivery(receiver.url('/in'));
    const before = Math.floor(Date.now() / 1000);
    expect(
      await deliverWebhook.run(
        jobOf('deliver-webhook', { deliveryId: delivery.id }, { opts: webhookJobOptions(delivery.id) }),
        t.deps,
      ),
    ).toEqual({ status: 'delivered', statusCode: 204 });

    const [request] = receiver.received;
    expect(request).toMatchObject({
      path: '/in',
      headers: { 'content-type': 'application/json', 'prodshot-event-id': event.id },
    });
    expect(JSON.parse(request!.body)).toEqual(event);
    const signature = String(request!.headers['prodshot-signature']);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(Number(/^t=(\d+)/.exec(signature)![1])).toBeGreaterThanOrEqual(before);
    expect(verifySignature(SECRET, signature, request!.body)).toBe(true);
    expect(verifySignature('whsec_another', signature, request!.body)).toBe(false);
    expect(verifySignature(SECRET, signature, request!.body.replace('"balance":1', '"balance":2'))).toBe(false);
    expect(await row(delivery.id)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      last_status_code: 204,
      last_error: null,
    });
  });

  it('reaches a receiver that was down for a while, later, once: every attempt carries the same event id', async () => {
    const { delivery, event } = await newDelivery(receiver.url('/down'));
    await receiver.stop();
    lanes = startWebhookWorker(t.deps);
    // The same delivery enqueued twice is one job: never two sends of an event at once.
    await t.deps.producer.enqueue('deliver-webhook', { deliveryId: delivery.id }, webhookJobOptions(delivery.id, 200));
    await t.deps.producer.enqueue('deliver-webhook', { deliveryId: delivery.id }, webhookJobOptions(delivery.id, 200));
    expect(
      await t.deps.producer.queue('webhooks').getJobs(['waiting', 'prioritized', 'active', 'delayed']),
    ).toHaveLength(1);
    const failed = await eventually(async () => {
      const current = await row(delivery.id);
      return current && current.attempts >= 2 && current;
    });
    expect(failed).toMatchObject({ status: 'pending', last_status_code: null });
    expect(failed.last_error).toMatch(/Could not connect: ECONNREFUSED/);
    expect(failed.next_attempt_at!.getTime()).toBeGreaterThan(Date.now() - 1_000);

    // Back up, and answering 503 once before it recovers fully.
    let refused = 0;
    receiver.answer = (_request, response) =>
      void (refused++ === 0 ? response.writeHead(503).end() : response.writeHead(200).end('ok'));
    await receiver.start();
    const delivered = await eventually(async () => {
      const current = await row(delivery.id);
      return current?.status === 'delivered' && current;
    });
    expect(delivered.attempts).toBeGreaterThanOrEqual(4);
    expect(receiver.received.map((r) => r.headers['prodshot-event-id'])).toEqual([event.id, event.id]);
    // No further attempt after the delivered one.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.received).toHaveLength(2);
  }, 30_000);

  it('gives a receiver that never answers 10 s, while the other deliveries go out meanwhile', async () => {
    receiver.answer = (request, response) => {
      if (request.path === '/fast') response.writeHead(204).end();
      // /slow: never answers.
    };
    const slow = await newDelivery(receiver.url('/slow'));
    const fast = await newDelivery(receiver.url('/fast'));
    lanes = startWebhookWorker(t.deps);
    const startedAt = Date.now();
    await t.deps.producer.enqueue(
      'deliver-webhook',
      { deliveryId: slow.delivery.id },
      webhookJobOptions(slow.delivery.id),
    );
    await eventually(async () => receiver.received.some((r) => r.path === '/slow'));
    await t.deps.producer.enqueue(
      'deliver-webhook',
      { deliveryId: fast.delivery.id },
      webhookJobOptions(fast.delivery.id),
    );
    await eventually(async () => (await row(fast.delivery.id))?.status === 'delivered', WEBHOOK_TIMEOUT_MS);
    // Delivered while the slow one still waits on its receiver: no lane is kept from it.
    expect((await row(slow.delivery.id))?.attempts).toBe(0);

    const timedOut = await eventually(async () => {
      const current = await row(slow.delivery.id);
      return current && current.attempts === 1 && current;
    }, WEBHOOK_TIMEOUT_MS + 5_000);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(WEBHOOK_TIMEOUT_MS - 500);
    expect(timedOut).toMatchObject({ status: 'pending', last_error: 'No answer within 10 s', last_status_code: null });
  }, 30_000);

  it("sends a receiver that left a delivery unanswered nothing more for a while: its other deliveries fail at once, untried, another endpoint's go out", async () => {
    receiver.answer = (request, response) => {
      if (request.path !== '/hung') response.writeHead(204).end();
    };
    const hung = await newDelivery(receiver.url('/hung'));
    const run = (deliveryId: string) =>
      deliverWebhook.run(jobOf('deliver-webhook', { deliveryId }, { opts: webhookJobOptions(deliveryId) }), t.deps);
    await expect(run(hung.delivery.id)).rejects.toThrow('No answer within 10 s');

    const [next] = await t.deps.repos.webhooks.recordEvent([hung.delivery.endpoint_id], {
      ...hung.event,
      id: `${hung.event.id}_next`,
    });
    await expect(run(next!.id)).rejects.toThrow(/^Not sent: this receiver left a delivery unanswered in the last 60 s/);
    expect(receiver.received.map((r) => r.path)).toEqual(['/hung']);
    expect(await row(next!.id)).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null });

    const other = await newDelivery(receiver.url('/answers'));
    expect(await run(other.delivery.id)).toEqual({ status: 'delivered', statusCode: 204 });
    // Once the hold has passed, the receiver is tried again.
    await t.deps.db
      .updateTable('webhook_deliveries')
      .set({ last_attempt_at: new Date(Date.now() - 61_000) })
      .where('id', '=', hung.delivery.id)
      .execute();
    receiver.answer = (_request, response) => void response.writeHead(204).end();
    expect(await run(next!.id)).toEqual({ status: 'delivered', statusCode: 204 });
  }, 30_000);

  it('does not follow a redirect: a 3xx is a failed attempt and the place it points to is never called', async () => {
    receiver.answer = (request, response) => {
      if (request.path === '/moved') response.writeHead(302, { location: receiver.url('/elsewhere') }).end();
      else response.writeHead(204).end();
    };
    const { delivery } = await newDelivery(receiver.url('/moved'));
    await expect(
      deliverWebhook.run(
        jobOf('deliver-webhook', { deliveryId: delivery.id }, { opts: webhookJobOptions(delivery.id) }),
        t.deps,
      ),
    ).rejects.toThrow(/302; redirects are not followed/);
    expect(receiver.received.map((r) => r.path)).toEqual(['/moved']);
    expect(await row(delivery.id)).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 302 });
  });

  it('reads no more than 64 kB of an answer', async () => {
    receiver.answer = (_request, response) => {
      response.writeHead(200);
      // An answer that never ends, 1 MB at a time.
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      const flood = setInterval(() => (response.destroyed ? clearInterval(flood) : response.write(chunk)), 5);
    };
    const { delivery } = await newDelivery(receiver.url('/chatty'));
    expect(
      await deliverWebhook.run(
        jobOf('deliver-webhook', { deliveryId: delivery.id }, { opts: webhookJobOptions(delivery.id) }),
        t.deps,
      ),
    ).toEqual({ status: 'delivered', statusCode: 200 });
  });

  it('refuses a loopback receiver when the deployment is not on loopback, and fails for good on the last attempt', async () => {
    const { delivery } = await newDelivery(receiver.url('/private'));
    const deps = { ...t.deps, config: { ...t.deps.config, webhooks: { loopbackReceivers: false } } };
    const opts = webhookJobOptions(delivery.id);
    await expect(
      deliverWebhook.run(
        jobOf('deliver-webhook', { deliveryId: delivery.id }, { attemptsMade: opts.attempts! - 1, opts }),
        deps,
      ),
    ).rejects.toThrow(/https/);
    expect(receiver.received).toEqual([]);
    expect(await row(delivery.id)).toMatchObject({ status: 'failed', attempts: 1, next_attempt_at: null });
  });

  it('sends nothing for an endpoint deleted since', async () => {
    const { delivery } = await newDelivery(receiver.url('/deleted'));
    await t.deps.db
      .updateTable('webhook_endpoints')
      .set({ deleted_at: new Date() })
      .where('id', '=', delivery.endpoint_id)
      .execute();
    expect(await deliverWebhook.run(jobOf('deliver-webhook', { deliveryId: delivery.id }), t.deps)).toEqual({
      status: 'skipped',
    });
    expect(receiver.received).toEqual([]);
  });

  it('connects to the address checked, whatever the name would resolve to now, with the name as Host', async () => {
    const port = new URL(receiver.url()).port;
    // No resolver knows this name: only a connection pinned to the checked address reaches the receiver.
    const target = {
      url: new URL(`http://hooks.rebind.invalid:${port}/pinned`),
      address: '127.0.0.1',
      family: 4 as const,
    };
    expect(await postPinned(target, '{}', { 'content-type': 'application/json' })).toBe(204);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({ path: '/pinned', headers: { host: `hooks.rebind.invalid:${port}` } });
  });
});
