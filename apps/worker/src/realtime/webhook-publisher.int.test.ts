import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { GenerationDto, WebhookEvent } from '@prodshot/contracts';
import { batchDto, generationDto, WebhookEvents } from '@prodshot/db';
import { createRedisConnection } from '@prodshot/queue';
import { ArchiveLinkSecret, checkArchiveLink, generationOutputKey } from '@prodshot/storage';
import { handlers } from '../handlers/index.js';
import {
  eventually,
  startReceiver,
  startWebhookWorker,
  verifySignature,
  type TestReceiver,
} from '../webhook-receiver.test-support.js';
import { buildWorkerDeps, jobOf, sourceOf, type TestDeps, type TestWorkerDeps } from '../worker-deps.test-support.js';
import { withWebhookEvents } from './webhook-publisher.js';

const stack = inject('stack');
const SECRET = 'whsec_end_to_end';
let t: TestWorkerDeps;
let deps: TestDeps;
let receiver: TestReceiver;
let lanes: ReturnType<typeof startWebhookWorker>;
let redis: ReturnType<typeof createRedisConnection>;
let linkSecret: ArchiveLinkSecret;
const logged: unknown[] = [];

beforeAll(async () => {
  t = await buildWorkerDeps(stack);
  receiver = await startReceiver();
  redis = createRedisConnection(stack.redisUrl, 'producer', 'webhook-publisher-test');
  linkSecret = new ArchiveLinkSecret(redis);
  const events = new WebhookEvents(t.deps.repos, t.deps.store, linkSecret, (ids) =>
    t.deps.producer.enqueueWebhookDeliveries(ids),
  );
  deps = {
    ...t.deps,
    publisher: withWebhookEvents(t.deps.publisher, events, { error: (fields: unknown) => void logged.push(fields) }),
  };
  lanes = startWebhookWorker(deps);
});
afterAll(async () => {
  await lanes.close();
  await receiver.close();
  await redis.quit();
  await t.close();
});

/** A seller's one-output manual shot, rendered by the product-shot handler as the worker runs it. */
async function shoot(userId: string): Promise<string> {
  const upload = await t.newUpload(userId);
  const generationId = await t.newGeneration(userId, 1, 1, { kind: 'manual', imageId: upload.imageId });
  const payload = {
    ...sourceOf(userId, generationId, upload),
    backgroundType: 'studio' as const,
    prompt: undefined,
    count: 1,
    upscaleImageFirst: false,
    size: 1024 as const,
  };
  await handlers['product-shot'].run(jobOf('product-shot', payload), deps);
  return generationId;
}

describe('webhook events from the worker', () => {
  it('a completed generation reaches the seller’s receiver as a signed generation.completed with the generation’s DTO, and moves no credit', async () => {
    const userId = await t.newUser(3);
    await t.deps.repos.webhooks.createEndpoint({
      userId,
      url: receiver.url('/shop'),
      events: ['generation.completed'],
      secret: SECRET,
      creditsLowThreshold: null,
    });
    const generationId = await shoot(userId);
    const balanceAtSettle = await t.balance(userId);
    const ledgerAtSettle = await t.ledger(generationId);
    expect(balanceAtSettle).toBe(2);

    const request = await eventually(async () => receiver.received.find((r) => r.path === '/shop'));
    expect(verifySignature(SECRET, String(request.headers['prodshot-signature']), request.body)).toBe(true);
    const event = JSON.parse(request.body) as Extract<WebhookEvent, { type: 'generation.completed' }>;
    expect(event).toMatchObject({ type: 'generation.completed', id: request.headers['prodshot-event-id'] });
    expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
    const served = await generationDto(t.deps.store, (await t.deps.repos.generations.find(generationId))!);
    const withoutUrls = (dto: GenerationDto) => ({
      ...dto,
      styles: dto.styles.map(({ url: _u, thumbnailUrl: _t, previewUrl: _p, ...style }) => style),
    });
    expect(withoutUrls(event.data)).toEqual(withoutUrls(served));
    expect(event.data).toMatchObject({ id: generationId, status: 'complete' });
    expect(event.data.styles[0]!.url).toEqual(expect.any(String));

    const delivery = await eventually(async () => {
      const [row] = await t.deps.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('event_id', '=', event.id)
        .execute();
      return row?.status === 'delivered' && row;
    });
    expect(delivery.attempts).toBe(1);
    expect(await t.balance(userId)).toBe(balanceAtSettle);
    expect(await t.ledger(generationId)).toEqual(ledgerAtSettle);
    expect(logged).toEqual([]);
  });

  it('records nothing for a seller with no endpoint for the event, and a failing recorder never fails the generation', async () => {
    const userId = await t.newUser(2);
    await t.deps.repos.webhooks.createEndpoint({
      userId,
      url: receiver.url('/failed-only'),
      events: ['generation.failed'],
      secret: SECRET,
      creditsLowThreshold: null,
    });
    await shoot(userId);
    const broken = new WebhookEvents(t.deps.repos, t.deps.store, linkSecret, () =>
      Promise.reject(new Error('Redis is down')),
    );
    const brokenLog: unknown[] = [];
    const brokenDeps = {
      ...t.deps,
      publisher: withWebhookEvents(t.deps.publisher, broken, {
        error: (fields: unknown) => void brokenLog.push(fields),
      }),
    };
    const other = await t.newUser(2);
    await t.deps.repos.webhooks.createEndpoint({
      userId: other,
      url: receiver.url('/broken'),
      events: ['generation.completed'],
      secret: SECRET,
      creditsLowThreshold: null,
    });
    const upload = await t.newUpload(other);
    const generationId = await t.newGeneration(other, 1, 1, { kind: 'manual', imageId: upload.imageId });
    const payload = {
      ...sourceOf(other, generationId, upload),
      backgroundType: 'studio' as const,
      prompt: undefined,
      count: 1,
      upscaleImageFirst: false,
      size: 1024 as const,
    };
    await expect(handlers['product-shot'].run(jobOf('product-shot', payload), brokenDeps)).resolves.toEqual({
      generationId,
    });
    expect((await t.deps.repos.generations.find(generationId))?.status).toBe('complete');
    await eventually(async () => brokenLog.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.filter((r) => r.path === '/failed-only' || r.path === '/broken')).toEqual([]);
  });

  it('credits.low fires once per crossing of the threshold, and again after a refund lifted the balance back above it', async () => {
    const userId = await t.newUser(6);
    await t.deps.repos.webhooks.createEndpoint({
      userId,
      url: receiver.url('/low'),
      events: ['credits.low'],
      secret: SECRET,
      creditsLowThreshold: 5,
    });
    const lows = () =>
      receiver.received.filter((r) => r.path === '/low').map((r) => JSON.parse(r.body) as WebhookEvent);
    deps.publisher.emit(userId, 'credits:update', { subscriptionCredits: 0, addOnCredits: 4 });
    await eventually(async () => lows().length === 1);
    deps.publisher.emit(userId, 'credits:update', { subscriptionCredits: 0, addOnCredits: 3 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(lows()).toHaveLength(1);
    expect(lows()[0]).toMatchObject({ type: 'credits.low', data: { balance: 4, threshold: 5 } });
    // A refund lifts it back to the threshold (re-armed), a spend drops it below again: a new event.
    deps.publisher.emit(userId, 'credits:update', { subscriptionCredits: 2, addOnCredits: 3 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    deps.publisher.emit(userId, 'credits:update', { subscriptionCredits: 0, addOnCredits: 2 });
    await eventually(async () => lows().length === 2);
    expect(lows()[1]).toMatchObject({ data: { balance: 2, threshold: 5 } });
    expect(lows()[1]!.id).not.toBe(lows()[0]!.id);
  });

  it("batch.completed comes once, when the batch's last generation settles, with the batch as GET /api/batches/:id serves it", async () => {
    const userId = await t.newUser(0);
    await t.deps.repos.webhooks.createEndpoint({
      userId,
      url: receiver.url('/batches'),
      events: ['batch.completed'],
      secret: SECRET,
      creditsLowThreshold: null,
    });
    const batch = await t.deps.repos.batches.create({
      userId,
      choice: { mode: 'template', backgroundType: 'studio', count: 1 },
      credits: 2,
    });
    const ids = [];
    for (const position of [0, 1]) {
      const generation = await t.deps.repos.generations.create({
        userId,
        imageId: null,
        kind: 'manual',
        stage: null,
        request: { productTitle: `Mug ${position}` },
        slots: [{ index: 0, name: 'Studio', prompt: null, backgroundType: 'studio' }],
        batch: { id: batch.id, position },
      });
      ids.push(generation.id);
    }
    const settle = async (
      generationId: string,
      outcome: { status: 'complete'; result_key: string; result_bytes: number } | { status: 'failed'; error: string },
    ) => {
      await t.deps.db.updateTable('generation_styles').set(outcome).where('generation_id', '=', generationId).execute();
      await t.deps.repos.generations.settleIfDone(generationId);
      deps.publisher.emit(userId, 'generation:done', { generationId, status: outcome.status, error: null });
    };
    await settle(ids[0]!, {
      status: 'complete',
      result_key: generationOutputKey(userId, ids[0]!, 0, 'image/png'),
      result_bytes: 1200,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.filter((r) => r.path === '/batches')).toEqual([]);
    await settle(ids[1]!, { status: 'failed', error: 'The model refused' });
    // Announced twice (a retried job): still one event.
    deps.publisher.emit(userId, 'generation:done', {
      generationId: ids[1]!,
      status: 'failed',
      error: 'The model refused',
    });
    const request = await eventually(async () => receiver.received.find((r) => r.path === '/batches'));
    const event = JSON.parse(request.body) as Extract<WebhookEvent, { type: 'batch.completed' }>;
    expect(event).toMatchObject({ type: 'batch.completed', data: { id: batch.id, status: 'complete', credits: 2 } });
    // The API's DTO, but for the links signed at another moment.
    const served = await batchDto(t.deps.store, (await t.deps.repos.batches.find(batch.id))!, event.data.archiveUrl!);
    const unsigned = (dto: typeof served) => ({
      ...dto,
      items: dto.items.map((item) => ({
        ...item,
        outputs: item.outputs.map((o) => ({
          ...o,
          url: !!o.url,
          thumbnailUrl: !!o.thumbnailUrl,
          previewUrl: !!o.previewUrl,
        })),
      })),
    });
    expect(unsigned(event.data)).toEqual(unsigned(served));
    expect(event.data.items.map((item) => [item.generationId, item.productTitle, item.status])).toEqual([
      [ids[0], 'Mug 0', 'complete'],
      [ids[1], 'Mug 1', 'failed'],
    ]);
    // The zip's link is signed with the secret the API checks it with.
    const link = new URL(event.data.archiveUrl!, 'http://localhost');
    expect(link.pathname).toBe(`/api/batches/${batch.id}/archive`);
    expect(
      checkArchiveLink(
        await linkSecret.get(),
        batch.id,
        Number(link.searchParams.get('expires')),
        link.searchParams.get('signature')!,
      ),
    ).toBe('valid');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.filter((r) => r.path === '/batches')).toHaveLength(1);
  });
});
