import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { WebhookEvent } from '@prodshot/contracts';
import { createTestDatabase, type TestDatabase } from '@prodshot/testing';
import { WebhooksRepository, type NewWebhookEndpoint } from './webhooks-repository.js';

const stack = inject('stack');
let test: TestDatabase;
let webhooks: WebhooksRepository;
let alice: string;
let bob: string;

async function user(clerkId: string): Promise<string> {
  return (
    await test.db
      .insertInto('users')
      .values({ clerk_id: clerkId, email: `${clerkId}@example.com` })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

function endpoint(userId: string, overrides: Partial<NewWebhookEndpoint> = {}) {
  return webhooks.createEndpoint({
    userId,
    url: 'https://shop.example.com/hook',
    events: ['generation.completed'],
    secret: 'whsec_test',
    creditsLowThreshold: null,
    ...overrides,
  });
}

function event(id: string): WebhookEvent {
  return { id, type: 'credits.low', createdAt: new Date().toISOString(), data: { balance: 2, threshold: 5 } };
}

beforeAll(async () => {
  test = await createTestDatabase(stack);
  webhooks = new WebhooksRepository(test.db);
  alice = await user('user_hooks_alice');
  bob = await user('user_hooks_bob');
});
afterAll(() => test.drop());

describe('WebhooksRepository', () => {
  it("lists a user's endpoints newest first, never another user's nor a deleted one, and deletes only the owner's", async () => {
    const first = await endpoint(alice);
    const second = await endpoint(alice, { events: ['batch.completed', 'generation.failed'] });
    await endpoint(bob);
    expect((await webhooks.listEndpoints(alice)).map((e) => e.id)).toEqual([second.id, first.id]);
    expect(second.events).toEqual(['batch.completed', 'generation.failed']);
    expect(await webhooks.deleteEndpoint(bob, first.id)).toBe(false);
    expect(await webhooks.deleteEndpoint(alice, first.id)).toBe(true);
    expect(await webhooks.deleteEndpoint(alice, first.id)).toBe(false);
    expect((await webhooks.listEndpoints(alice)).map((e) => e.id)).toEqual([second.id]);
    expect(await webhooks.findEndpoint(alice, first.id)).toBeUndefined();
    expect((await webhooks.subscribers(alice, 'generation.failed')).map((e) => e.id)).toEqual([second.id]);
    expect(await webhooks.subscribers(alice, 'generation.completed')).toEqual([]);
  });

  it('refuses an unknown event type and no event at all', async () => {
    await expect(endpoint(alice, { events: ['shot.done' as 'batch.completed'] })).rejects.toThrow(/check constraint/);
    await expect(endpoint(alice, { events: [] })).rejects.toThrow(/check constraint/);
  });

  it('records an event once per endpoint however often it is recorded', async () => {
    const a = await endpoint(bob);
    const b = await endpoint(bob);
    const created = await webhooks.recordEvent([a.id, b.id], event('evt_once'));
    expect(created.map((d) => d.endpoint_id).sort()).toEqual([a.id, b.id].sort());
    expect(await webhooks.recordEvent([a.id, b.id], event('evt_once'))).toEqual([]);
    const delivery = created[0]!;
    expect(delivery).toMatchObject({ status: 'pending', attempts: 0, event_type: 'credits.low', last_error: null });
    expect(delivery.payload).toMatchObject({ id: 'evt_once', type: 'credits.low', data: { balance: 2, threshold: 5 } });
  });

  it('counts attempts, keeps the last error and status code, and settles delivered or failed', async () => {
    const hook = await endpoint(bob);
    const [delivery] = await webhooks.recordEvent([hook.id], event('evt_attempts'));
    const next = new Date(Date.now() + 60_000);
    await webhooks.recordAttempt(delivery!.id, {
      delivered: false,
      statusCode: 503,
      error: 'The receiver answered 503',
      nextAttemptAt: next,
    });
    expect(await webhooks.findDeliveryToSend(delivery!.id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: 503,
      last_error: 'The receiver answered 503',
      next_attempt_at: next,
      url: hook.url,
      secret: 'whsec_test',
      endpointDeleted: false,
    });
    await webhooks.recordAttempt(delivery!.id, { delivered: true, statusCode: 204 });
    expect(await webhooks.findDeliveryToSend(delivery!.id)).toMatchObject({
      status: 'delivered',
      attempts: 2,
      last_status_code: 204,
      last_error: null,
      next_attempt_at: null,
    });

    const [other] = await webhooks.recordEvent([hook.id], event('evt_fails'));
    await webhooks.recordAttempt(other!.id, {
      delivered: false,
      statusCode: null,
      error: 'timed out',
      nextAttemptAt: null,
    });
    expect(await webhooks.findDeliveryToSend(other!.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: 'timed out',
    });
    expect((await webhooks.requeue(other!.id)).status).toBe('pending');
  });

  it("lists an endpoint's deliveries newest first to its owner only", async () => {
    const hook = await endpoint(alice);
    const created = [];
    for (const id of ['evt_l1', 'evt_l2', 'evt_l3'])
      created.push(...(await webhooks.recordEvent([hook.id], event(id))));
    expect((await webhooks.listDeliveries(alice, hook.id, 2)).map((d) => d.event_id)).toEqual(['evt_l3', 'evt_l2']);
    expect(await webhooks.listDeliveries(bob, hook.id, 10)).toEqual([]);
    expect(await webhooks.findOwnedDelivery(bob, hook.id, created[0]!.id)).toBeUndefined();
    expect((await webhooks.findOwnedDelivery(alice, hook.id, created[0]!.id))?.event_id).toBe('evt_l1');
  });

  it('fires credits.low once per crossing below each threshold, and again after the balance climbs back', async () => {
    const carol = await user('user_hooks_carol');
    const low5 = await endpoint(carol, { events: ['credits.low'], creditsLowThreshold: 5 });
    const low10 = await endpoint(carol, { events: ['credits.low', 'generation.completed'], creditsLowThreshold: 10 });
    await endpoint(carol, { events: ['generation.completed'], creditsLowThreshold: 50 });
    expect(await webhooks.creditsLowCrossed(carol, 20)).toEqual([]);
    expect((await webhooks.creditsLowCrossed(carol, 8)).map((e) => e.id)).toEqual([low10.id]);
    expect(await webhooks.creditsLowCrossed(carol, 7)).toEqual([]);
    expect((await webhooks.creditsLowCrossed(carol, 4)).map((e) => e.id)).toEqual([low5.id]);
    expect(await webhooks.creditsLowCrossed(carol, 0)).toEqual([]);
    // Topped up past both, then spent down again: both fire again.
    expect(await webhooks.creditsLowCrossed(carol, 30)).toEqual([]);
    expect((await webhooks.creditsLowCrossed(carol, 3)).map((e) => e.id).sort()).toEqual([low5.id, low10.id].sort());
  });
});
