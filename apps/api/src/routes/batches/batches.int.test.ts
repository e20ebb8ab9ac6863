import { Worker } from 'bullmq';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import {
  BATCH_ITEMS_MAX,
  BUY_CREDITS_URL,
  SUPPORTED_PRODUCT_LIST,
  type BatchDto,
  type RunStatus,
} from '@prodshot/contracts';
import { GenerationsRepository } from '@prodshot/db';
import { sql } from 'kysely';
import { createRedisConnection, QUEUE_ORDER } from '@prodshot/queue';
import { makeDownloadCopy } from '@prodshot/imaging';
import { downloadCopyKey, generationOutputKey } from '@prodshot/storage';
import { productPhoto } from '../../faults/fault-support.test-support.js';
import {
  announcedBalances,
  balanceOf,
  connectSocket,
  creditsReservedTotal,
  eventually,
  grantCredits,
  signIn,
  upload,
  type Session,
} from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';
import { readZip } from '@prodshot/testing';

const stack = inject('stack');
let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp(stack, {
    listen: true,
    env: { RATE_LIMIT_GENERATIONS_PER_MINUTE: '1000', RATE_LIMIT_UPLOADS_PER_MINUTE: '1000' },
  });
}, 60_000);
afterAll(() => testApp.close());

let sellers = 0;
async function seller(credits: number, photos: number): Promise<{ session: Session; imageIds: string[] }> {
  sellers += 1;
  const session = await signIn(testApp, `batch-${sellers}-${Date.now()}@example.com`);
  if (credits > 0) await grantCredits(testApp, session.userId, credits);
  const imageIds: string[] = [];
  for (let n = 0; n < photos; n += 1)
    imageIds.push(
      (await upload(testApp, session, await productPhoto(`#${(n * 3 + 2).toString(16)}6a`), 'shoe.jpg')).json()._id,
    );
  return { session, imageIds };
}

function postBatch(who: Session, payload: object, key?: string) {
  return testApp.app.inject({
    method: 'POST',
    url: '/api/batches',
    payload,
    headers: { ...who.auth, ...(key ? { 'idempotency-key': key } : {}) },
  });
}

function getBatch(who: Session, id: string) {
  return testApp.app.inject({ method: 'GET', url: `/api/batches/${id}`, headers: who.auth });
}

async function batchesOf(userId: string) {
  return testApp.deps.db.selectFrom('batches').select('id').where('user_id', '=', userId).execute();
}

/** A slot's output stored and completed, as a worker leaves it. */
async function finish(who: Session, generationId: string, index: number, bytes: Buffer): Promise<void> {
  const generations = new GenerationsRepository(testApp.deps.db);
  const key = generationOutputKey(who.userId, generationId, index, 'image/png');
  await testApp.deps.store.put(key, bytes, 'image/png');
  await generations.markStyleRunning(generationId, index);
  await generations.completeStyle(generationId, index, key);
}

/** A slot's output stored with its download copy and both sizes recorded, as a worker leaves it now. */
async function finishWithCopy(who: Session, generationId: string, index: number, png: Buffer): Promise<void> {
  const generations = new GenerationsRepository(testApp.deps.db);
  const key = generationOutputKey(who.userId, generationId, index, 'image/png');
  const copy = await makeDownloadCopy(png);
  const copyKey = downloadCopyKey(key, copy.contentType);
  await testApp.deps.store.put(key, png, 'image/png');
  await testApp.deps.store.put(copyKey, copy.data, copy.contentType);
  await generations.markStyleRunning(generationId, index);
  await generations.completeStyle(generationId, index, key, 1, {
    resultBytes: png.length,
    download: { key: copyKey, bytes: copy.data.length },
  });
}

/** What the batch's generations took from the balance and did not give back (held or spent). */
async function creditsTaken(batchId: string): Promise<number> {
  const row = await testApp.deps.db
    .selectFrom('credit_ledger as l')
    .innerJoin('generations as g', 'g.id', 'l.generation_id')
    .select((eb) =>
      eb.fn
        .coalesce(eb.fn.sum<number>(eb(eb.ref('l.subscription_delta'), '+', eb.ref('l.addon_delta'))), eb.lit(0))
        .as('delta'),
    )
    .where('g.batch_id', '=', batchId)
    .executeTakeFirstOrThrow();
  return 0 - Number(row.delta);
}

describe('POST /api/batches', () => {
  it('reserves the whole batch at once and owns one generation per photo, in order', async () => {
    const { session, imageIds } = await seller(10, 3);
    const response = await postBatch(session, {
      items: imageIds.map((imageId, n) => ({ imageId, productTitle: `Shoe ${n}` })),
      choice: { mode: 'smart', styleCount: 2 },
    });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json().data).toMatchObject({ credits: 6, status: 'queued' });
    expect(await balanceOf(testApp, session.userId)).toBe(4);

    const batch = (await getBatch(session, response.json().data.batchId)).json<{ data: BatchDto }>().data;
    expect(batch.items.map((item) => [item.position, item.imageId, item.productTitle])).toEqual(
      imageIds.map((imageId, n) => [n, imageId, `Shoe ${n}`]),
    );
    expect(batch).toMatchObject({
      credits: 6,
      status: 'queued',
      archiveUrl: null,
      choice: { mode: 'smart', styleCount: 2 },
    });
    expect(batch.items.map((item) => item.stage)).toEqual(['analysing', 'analysing', 'analysing']);
    // Each photo's job is the one the single call would start, at the batch tier.
    for (const item of batch.items) {
      const job = await testApp.deps.producer.queue('interactive').getJob(item.generationId);
      expect(job?.name).toBe('style-recommendation');
      expect(job?.opts.priority).toBe(QUEUE_ORDER.batch.priority);
      expect(job?.data).toMatchObject({ mode: 'fan-out', styleCount: 2, productTitle: `Shoe ${item.position}` });
    }
  });

  it(`refuses more than ${BATCH_ITEMS_MAX} photos with a sentence, before anything is reserved`, async () => {
    const { session, imageIds } = await seller(50, 1);
    const response = await postBatch(session, {
      items: Array.from({ length: 21 }, () => ({ imageId: imageIds[0] })),
      choice: { mode: 'template', backgroundType: 'studio', count: 1 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'batch_too_large',
      message: 'A batch holds up to 20 photos; this one has 21. Split it into batches of 20 or fewer.',
    });
    expect(await balanceOf(testApp, session.userId)).toBe(50);
    expect(await batchesOf(session.userId)).toEqual([]);
  });

  it('refuses an empty batch, a bad choice and a blank prompt with 400', async () => {
    const { session, imageIds } = await seller(5, 1);
    const items = [{ imageId: imageIds[0] }];
    for (const payload of [
      { items: [], choice: { mode: 'smart', styleCount: 2 } },
      { items, choice: { mode: 'smart', styleCount: 7 } },
      { items, choice: { mode: 'template', backgroundType: 'nowhere', count: 1 } },
      { items, choice: { mode: 'prompt', prompt: '   ', count: 1 } },
    ]) {
      expect((await postBatch(session, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it("answers 404 for an unknown upload or another seller's, charging nothing", async () => {
    const { session, imageIds } = await seller(5, 1);
    const other = await seller(0, 1);
    for (const stranger of [other.imageIds[0], '00000000-0000-4000-8000-000000000000']) {
      const response = await postBatch(session, {
        items: [{ imageId: imageIds[0] }, { imageId: stranger }],
        choice: { mode: 'template', backgroundType: 'studio', count: 1 },
      });
      expect(response.statusCode).toBe(404);
    }
    expect(await balanceOf(testApp, session.userId)).toBe(5);
    expect(await batchesOf(session.userId)).toEqual([]);
  });

  it('refuses a batch the credits do not cover with 402, the shortfall and where to buy credits; nothing opened', async () => {
    const { session, imageIds } = await seller(5, 3);
    const response = await postBatch(session, {
      items: imageIds.map((imageId) => ({ imageId })),
      choice: { mode: 'template', backgroundType: 'marble', count: 2 },
    });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toEqual({
      statusCode: 402,
      error: 'Payment Required',
      code: 'insufficient_credits',
      message: 'Not enough credits: this needs 6 and you have 5. Buy a plan or add-on credits to continue.',
      needed: 6,
      available: 5,
      shortfall: 1,
      buyCreditsUrl: BUY_CREDITS_URL,
    });
    expect(await balanceOf(testApp, session.userId)).toBe(5);
    expect(await batchesOf(session.userId)).toEqual([]);
    expect(
      await testApp.deps.db.selectFrom('generations').select('id').where('user_id', '=', session.userId).execute(),
    ).toEqual([]);
  });

  it('answers a repeat with the same Idempotency-Key with the first batch and charges once, even racing', async () => {
    const { session, imageIds } = await seller(10, 2);
    const payload = {
      items: imageIds.map((imageId) => ({ imageId })),
      choice: { mode: 'prompt', prompt: 'On a beach at sunset', count: 1 },
    };
    const responses = await Promise.all(Array.from({ length: 4 }, () => postBatch(session, payload, 'batch-click')));
    expect(responses.map((r) => r.statusCode)).toEqual([202, 202, 202, 202]);
    expect(new Set(responses.map((r) => r.json().data.batchId)).size).toBe(1);
    expect((await postBatch(session, payload, 'batch-click')).json().data.batchId).toBe(
      responses[0]!.json().data.batchId,
    );
    expect(await balanceOf(testApp, session.userId)).toBe(8);
    expect(await batchesOf(session.userId)).toHaveLength(1);
    const other = await postBatch(
      session,
      { ...payload, choice: { mode: 'prompt', prompt: 'In snow', count: 1 } },
      'batch-click',
    );
    expect(other.statusCode).toBe(422);
  });

  it('is one payment when Redis refuses one photo: the whole batch is refunded and failed, and the retry with the same key opens and charges one batch', async () => {
    const { session, imageIds } = await seller(20, 5);
    const payload = {
      items: imageIds.map((imageId) => ({ imageId })),
      choice: { mode: 'template', backgroundType: 'studio', count: 1 },
    };
    // Redis drops the connection as the fifth photo's job is sent: four are already queued.
    const producer = testApp.deps.producer;
    const enqueue = producer.enqueue.bind(producer);
    let shots = 0;
    const refusing = vi.spyOn(producer, 'enqueue').mockImplementation(async (name, ...rest) => {
      if (name === 'product-shot' && ++shots === 5) throw new Error('Connection is closed.');
      return enqueue(name, ...rest);
    });
    let refused;
    try {
      refused = await postBatch(session, payload, 'one-click');
    } finally {
      refusing.mockRestore();
    }
    expect(refused.statusCode, refused.body).toBe(503);
    expect(await balanceOf(testApp, session.userId)).toBe(20);

    // The web app retries a 503 with the same key.
    const retried = await postBatch(session, payload, 'one-click');
    expect(retried.statusCode, retried.body).toBe(202);
    const running = retried.json().data.batchId as string;
    expect(await balanceOf(testApp, session.userId)).toBe(15);
    expect((await postBatch(session, payload, 'one-click')).json().data.batchId).toBe(running);

    const batches = await batchesOf(session.userId);
    expect(batches).toHaveLength(2);
    const abandoned = batches.find((batch) => batch.id !== running)!.id;
    const failed = (await getBatch(session, abandoned)).json<{ data: BatchDto }>().data;
    expect(failed.status).toBe('failed');
    expect(failed.items.map((item) => [item.status, item.error])).toEqual(
      imageIds.map(() => ['failed', 'The generation could not be queued. Your credits were refunded.']),
    );
    // Charged once: the refused batch holds and spent nothing, the retried one holds its five credits.
    expect(await creditsTaken(abandoned)).toBe(0);
    expect(await creditsTaken(running)).toBe(5);
    expect((await getBatch(session, running)).json<{ data: BatchDto }>().data.status).toBe('queued');
  });
});

describe('the batch tier of the queue', () => {
  it("hands out another seller's single shot before a batch that was waiting first", async () => {
    const batcher = await seller(20, 4);
    const single = await seller(2, 1);
    const batch = await postBatch(batcher.session, {
      items: batcher.imageIds.map((imageId) => ({ imageId })),
      choice: { mode: 'template', backgroundType: 'studio', count: 1 },
    });
    expect(batch.statusCode).toBe(202);
    const shot = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/generate-product-shots',
      payload: { imageId: single.imageIds[0], backgroundType: 'studio' },
      headers: { ...single.session.auth, prefer: 'respond-async' },
    });
    const shotId = shot.json().data.generationId;
    const batchIds = (await getBatch(batcher.session, batch.json().data.batchId))
      .json<{ data: BatchDto }>()
      .data.items.map((item) => item.generationId);

    const connection = createRedisConnection(stack.redisUrl, 'consumer', 'batch-order-test');
    const worker = new Worker('render', undefined, { connection, prefix: testApp.env.QUEUE_PREFIX!, autorun: false });
    try {
      const handedOut: string[] = [];
      for (
        let job = await worker.getNextJob('t', { block: false });
        job;
        job = await worker.getNextJob('t', { block: false })
      )
        handedOut.push(job.id!);
      const mine = handedOut.filter((id) => id === shotId || batchIds.includes(id));
      expect(mine).toEqual([shotId, ...batchIds]);
    } finally {
      await worker.close();
      connection.disconnect();
    }
  });

  it('counts the prioritized jobs in prodshot_queue_jobs', async () => {
    const metrics = await testApp.ops.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/prodshot_queue_jobs\{[^}]*queue="render"[^}]*state="prioritized"[^}]*\} \d+/);
  });
});

describe('GET /api/batches/:id and its archive', () => {
  let owner: Session;
  let batchId: string;
  let png: Buffer;
  let jpeg: Buffer;

  /** Two photos, two outputs each; three done as a worker leaves them (one JPEG stored under a .png key), one failed. */
  beforeAll(async () => {
    const { session, imageIds } = await seller(10, 2);
    owner = session;
    const response = await postBatch(owner, {
      items: [{ imageId: imageIds[0], productTitle: 'Red Shoe!' }, { imageId: imageIds[1] }],
      choice: { mode: 'template', backgroundType: 'marble', count: 2 },
    });
    batchId = response.json().data.batchId;
    const batch = (await getBatch(owner, batchId)).json<{ data: BatchDto }>().data;
    png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c0ffee' } })
      .png()
      .toBuffer();
    jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#bada55' } })
      .jpeg()
      .toBuffer();
    const [first, second] = batch.items;
    await finish(owner, first!.generationId, 0, png);
    await finish(owner, first!.generationId, 1, jpeg);
    await finish(owner, second!.generationId, 0, png);
    await new GenerationsRepository(testApp.deps.db).failStyle(second!.generationId, 1, 'The model refused');
  });

  it('lists every item with its outputs, URLs signed afresh, and a download link', async () => {
    const batch = (await getBatch(owner, batchId)).json<{ data: BatchDto }>().data;
    expect(batch.items.map((item) => item.outputs.map((output) => [output.status, output.url !== null]))).toEqual([
      [
        ['complete', true],
        ['complete', true],
      ],
      [
        ['complete', true],
        ['failed', false],
      ],
    ]);
    // The untitled photo goes by the name of the file the seller uploaded.
    expect(batch.items.map((item) => item.productTitle)).toEqual(['Red Shoe!', 'shoe']);
    expect(batch.archiveUrl).toMatch(new RegExp(`^/api/batches/${batchId}/archive\\?expires=\\d+&signature=`));
  });

  it('streams a zip of every finished output named {product}-{style}-{n}.{ext}, the extension from the bytes', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/api/batches/${batchId}/archive`,
      headers: owner.auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="prodshot-batch-[0-9a-f]{8}\.zip"$/);
    const entries = await readZip(response.rawPayload);
    expect(entries.map((entry) => entry.name)).toEqual([
      'red-shoe-marble-1.png',
      'red-shoe-marble-2.jpg',
      'shoe-marble-1.png',
    ]);
    expect(entries.map((entry) => entry.data.equals(entry.name.endsWith('.jpg') ? jpeg : png))).toEqual([
      true,
      true,
      true,
    ]);
    for (const entry of entries)
      expect((await sharp(entry.data).metadata()).format).toBe(entry.name.endsWith('.jpg') ? 'jpeg' : 'png');
  });

  it('opens the zip by its signed link without a token, and refuses a tampered or expired one', async () => {
    const { archiveUrl } = (await getBatch(owner, batchId)).json<{ data: BatchDto }>().data;
    const linked = await testApp.app.inject({ method: 'GET', url: archiveUrl! });
    expect(linked.statusCode).toBe(200);
    expect((await readZip(linked.rawPayload)).map((entry) => entry.name)).toHaveLength(3);
    expect((await testApp.app.inject({ method: 'GET', url: `${archiveUrl!}x` })).statusCode).toBe(403);
    const stale = archiveUrl!.replace(/expires=\d+/, 'expires=1000');
    expect((await testApp.app.inject({ method: 'GET', url: stale })).statusCode).toBe(403);
    // A malformed link is read as it came and refused by its signature, as a stored file's is.
    const malformed = await testApp.app.inject({
      method: 'GET',
      url: archiveUrl!.replace(/expires=\d+/, 'expires=soon'),
    });
    expect([malformed.statusCode, malformed.json().code]).toEqual([403, 'invalid_signature']);
    // A link signs one batch: it opens no other.
    const { session, imageIds } = await seller(2, 1);
    const theirs = (
      await postBatch(session, {
        items: [{ imageId: imageIds[0] }],
        choice: { mode: 'template', backgroundType: 'studio', count: 1 },
      })
    ).json().data.batchId;
    expect((await testApp.app.inject({ method: 'GET', url: archiveUrl!.replace(batchId, theirs) })).statusCode).toBe(
      403,
    );
  });

  it("answers 404 for another seller's batch, on the batch and on its zip, and 401 without a token", async () => {
    const { session } = await seller(0, 0);
    for (const url of [
      `/api/batches/${batchId}`,
      `/api/batches/${batchId}/archive`,
      '/api/batches/not-a-batch',
      '/api/batches/00000000-0000-4000-8000-000000000000/archive',
    ]) {
      const response = await testApp.app.inject({ method: 'GET', url, headers: session.auth });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain(owner.userId);
    }
    expect((await testApp.app.inject({ method: 'GET', url: `/api/batches/${batchId}/archive` })).statusCode).toBe(401);
  });

  it('answers 409 while no output is finished', async () => {
    const { session, imageIds } = await seller(1, 1);
    const fresh = (
      await postBatch(session, {
        items: [{ imageId: imageIds[0] }],
        choice: { mode: 'template', backgroundType: 'studio', count: 1 },
      })
    ).json().data.batchId;
    expect(
      (await testApp.app.inject({ method: 'GET', url: `/api/batches/${fresh}/archive`, headers: session.auth }))
        .statusCode,
    ).toBe(409);
  });

  it('is listed in the OpenAPI document with its response schemas', async () => {
    const docs = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    }>();
    expect(Object.keys(docs.paths['/api/batches']!.post!.responses)).toEqual(expect.arrayContaining(['202', '402']));
    expect(Object.keys(docs.paths['/api/batches/{id}']!.get!.responses)).toContain('200');
    expect(docs.paths['/api/batches/{id}/archive']!.get!.responses['200']).toMatchObject({
      content: { 'application/zip': expect.anything() },
    });
  });
});

describe("a batch past its owner's history", () => {
  it('shows only what the history shows, and once nothing is left answers 404 on the batch, its zip and its signed link', async () => {
    const { session, imageIds } = await seller(2, 2);
    const created = await postBatch(session, {
      items: imageIds.map((imageId) => ({ imageId })),
      choice: { mode: 'template', backgroundType: 'studio', count: 1 },
    });
    const batchId = created.json().data.batchId as string;
    const [done, running] = (await getBatch(session, batchId)).json<{ data: BatchDto }>().data.items;
    const generations = new GenerationsRepository(testApp.deps.db);
    await finish(
      session,
      done!.generationId,
      0,
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
        .png()
        .toBuffer(),
    );
    expect(await generations.settleIfDone(done!.generationId)).toBe('complete');
    const { archiveUrl } = (await getBatch(session, batchId)).json<{ data: BatchDto }>().data;
    expect(archiveUrl).not.toBeNull();

    // 31 days on, without a plan (30 days of history): the finished photo and both uploads are past it; the other photo is still queued.
    const monthAgo = sql<Date>`now() - make_interval(days => 31)`;
    await testApp.deps.db.updateTable('batches').set({ created_at: monthAgo }).where('id', '=', batchId).execute();
    await testApp.deps.db
      .updateTable('generations')
      .set({ created_at: monthAgo })
      .where('batch_id', '=', batchId)
      .execute();
    await testApp.deps.db.updateTable('images').set({ created_at: monthAgo }).where('id', 'in', imageIds).execute();
    const kept = (await getBatch(session, batchId)).json<{ data: BatchDto }>().data;
    expect(kept.items.map((item) => [item.generationId, item.status, item.thumbnailUrl])).toEqual([
      [running!.generationId, 'queued', null],
    ]);
    expect(kept.archiveUrl).toBeNull();
    expect(
      (await testApp.app.inject({ method: 'GET', url: `/api/batches/${batchId}/archive`, headers: session.auth }))
        .statusCode,
    ).toBe(409);

    // It settles: nothing of the batch is left in the history.
    await generations.failStyle(running!.generationId, 0, 'The model refused');
    await generations.settleIfDone(running!.generationId);
    for (const url of [`/api/batches/${batchId}`, `/api/batches/${batchId}/archive`]) {
      expect((await testApp.app.inject({ method: 'GET', url, headers: session.auth })).statusCode, url).toBe(404);
    }
    expect((await testApp.app.inject({ method: 'GET', url: archiveUrl! })).statusCode).toBe(404);
  });
});

describe('a batch zip of download copies', () => {
  it('holds the JPEGs, named after the product or the uploaded file, and says its size before the download; the originals zip as PNGs with theirs', async () => {
    const { session, imageIds } = await seller(4, 2);
    const items = [{ imageId: imageIds[0], productTitle: 'Runner 420 sneaker' }, { imageId: imageIds[1] }];
    const batchId = (
      await postBatch(session, { items, choice: { mode: 'template', backgroundType: 'marble', count: 2 } })
    ).json().data.batchId as string;
    const generationIds = (await getBatch(session, batchId))
      .json<{ data: BatchDto }>()
      .data.items.map((item) => item.generationId);
    const grain = { type: 'gaussian', mean: 128, sigma: 20 } as const;
    const png = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#888', noise: grain } })
      .png()
      .toBuffer();
    for (const generationId of generationIds)
      for (const index of [0, 1]) await finishWithCopy(session, generationId, index, png);

    const batch = (await getBatch(session, batchId)).json<{ data: BatchDto }>().data;
    const zip = await testApp.app.inject({ method: 'GET', url: batch.archiveUrl! });
    const entries = await readZip(zip.rawPayload);
    expect(entries.map((entry) => entry.name)).toEqual([
      'runner-420-sneaker-marble-1.jpg',
      'runner-420-sneaker-marble-2.jpg',
      'shoe-marble-1.jpg',
      'shoe-marble-2.jpg',
    ]);
    for (const entry of entries) expect((await sharp(entry.data).metadata()).format).toBe('jpeg');
    expect(batch.archiveBytes).toBe(zip.rawPayload.length);

    const originals = await testApp.app.inject({ method: 'GET', url: `${batch.archiveUrl!}&file=original` });
    expect((await readZip(originals.rawPayload)).map((entry) => entry.name)).toEqual([
      'runner-420-sneaker-marble-1.png',
      'runner-420-sneaker-marble-2.png',
      'shoe-marble-1.png',
      'shoe-marble-2.png',
    ]);
    expect(batch.originalArchiveBytes).toBe(originals.rawPayload.length);
    expect(batch.archiveBytes!).toBeLessThan(batch.originalArchiveBytes! / 2);
  });

  it('leaves the sizes unknown while an output stored before sizes were recorded is in it, and unset before any output', async () => {
    const { session, imageIds } = await seller(2, 1);
    const batchId = (
      await postBatch(session, {
        items: [{ imageId: imageIds[0] }],
        choice: { mode: 'template', backgroundType: 'studio', count: 2 },
      })
    ).json().data.batchId as string;
    const { generationId } = (await getBatch(session, batchId)).json<{ data: BatchDto }>().data.items[0]!;
    expect((await getBatch(session, batchId)).json<{ data: BatchDto }>().data).toMatchObject({
      archiveBytes: null,
      originalArchiveBytes: null,
    });
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c0ffee' } })
      .png()
      .toBuffer();
    await finishWithCopy(session, generationId, 0, png);
    expect((await getBatch(session, batchId)).json<{ data: BatchDto }>().data.archiveBytes).toEqual(expect.any(Number));
    await finish(session, generationId, 1, png);
    expect((await getBatch(session, batchId)).json<{ data: BatchDto }>().data).toMatchObject({
      archiveBytes: null,
      originalArchiveBytes: null,
    });
  });
});

describe('a batch read back', () => {
  it('is queued, running or settled as its items are, and links its zip once any output is finished', async () => {
    const { session, imageIds } = await seller(4, 2);
    const batchId = (
      await postBatch(session, {
        items: imageIds.map((imageId) => ({ imageId })),
        choice: { mode: 'template', backgroundType: 'studio', count: 2 },
      })
    ).json().data.batchId as string;
    const [first, second] = (await getBatch(session, batchId))
      .json<{ data: BatchDto }>()
      .data.items.map((item) => item.generationId);
    const statusWith = async (a: RunStatus, b: RunStatus) => {
      await testApp.deps.db.updateTable('generations').set({ status: a }).where('id', '=', first!).execute();
      await testApp.deps.db.updateTable('generations').set({ status: b }).where('id', '=', second!).execute();
      return (await getBatch(session, batchId)).json<{ data: BatchDto }>().data.status;
    };
    expect(await statusWith('queued', 'queued')).toBe('queued');
    expect(await statusWith('running', 'queued')).toBe('running');
    expect(await statusWith('complete', 'queued')).toBe('running');
    expect(await statusWith('failed', 'queued')).toBe('running');
    expect(await statusWith('complete', 'failed')).toBe('complete');
    expect(await statusWith('failed', 'complete')).toBe('complete');
    expect(await statusWith('complete', 'complete')).toBe('complete');
    expect(await statusWith('failed', 'failed')).toBe('failed');

    // One output of four finished: the zip is linked, though no item has every output finished.
    await finish(
      session,
      first!,
      0,
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#345678' } })
        .png()
        .toBuffer(),
    );
    const batch = (await getBatch(session, batchId)).json<{ data: BatchDto }>().data;
    expect(batch.archiveUrl).toMatch(new RegExp(`^/api/batches/${batchId}/archive\\?expires=\\d+&signature=`));
    expect(
      batch.items[0]!.outputs.map((output) => [output.index, output.status, output.progress, output.url !== null]),
    ).toEqual([
      [0, 'complete', 100, true],
      [1, 'queued', 0, false],
    ]);
    // Only finished outputs go in the zip, whatever key an unfinished slot holds.
    await testApp.deps.db
      .updateTable('generation_styles')
      .set({ result_key: generationOutputKey(session.userId, first!, 0, 'image/png') })
      .where('generation_id', '=', first!)
      .where('index', '=', 1)
      .execute();
    const zip = await testApp.app.inject({
      method: 'GET',
      url: `/api/batches/${batchId}/archive`,
      headers: session.auth,
    });
    expect((await readZip(zip.rawPayload)).map((entry) => entry.name)).toEqual(['shoe-studio-1.png']);
  });

  it("names an untitled item by its upload's file name (the last extension off, trimmed), a title with no letters 'product' and a style with none 'style' in the zip, and an item whose upload is gone 'product'", async () => {
    const session = await signIn(testApp, `batch-names-${Date.now()}@example.com`);
    await grantCredits(testApp, session.userId, 2);
    const imageIds: string[] = [];
    for (const name of ['blue.mug v2 .jpg', 'tote.jpg'])
      imageIds.push((await upload(testApp, session, await productPhoto('#2a6'), name)).json()._id);
    const items = [{ imageId: imageIds[0] }, { imageId: imageIds[1], productTitle: '!!!' }];
    const batchId = (
      await postBatch(session, { items, choice: { mode: 'template', backgroundType: 'marble', count: 1 } })
    ).json().data.batchId as string;
    const created = (await getBatch(session, batchId)).json<{ data: BatchDto }>().data;
    expect(created.items.map((item) => item.productTitle)).toEqual(['blue.mug v2', '!!!']);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#345678' } })
      .png()
      .toBuffer();
    for (const item of created.items) await finish(session, item.generationId, 0, png);
    const zip = await testApp.app.inject({
      method: 'GET',
      url: `/api/batches/${batchId}/archive`,
      headers: session.auth,
    });
    expect((await readZip(zip.rawPayload)).map((entry) => entry.name).sort()).toEqual([
      'blue-mug-v2-marble-1.png',
      'product-marble-1.png',
    ]);
    // A style named with no Latin letter (a hosted model's recommendation in Japanese) zips as 'style'.
    await testApp.deps.db
      .updateTable('generation_styles')
      .set({ name: '和風の庭' })
      .where('generation_id', '=', created.items[1]!.generationId)
      .execute();
    const renamed = await testApp.app.inject({
      method: 'GET',
      url: `/api/batches/${batchId}/archive`,
      headers: session.auth,
    });
    expect((await readZip(renamed.rawPayload)).map((entry) => entry.name).sort()).toEqual([
      'blue-mug-v2-marble-1.png',
      'product-style-1.png',
    ]);

    await testApp.deps.db
      .updateTable('generations')
      .set({ image_id: null })
      .where('id', '=', created.items[0]!.generationId)
      .execute();
    expect((await getBatch(session, batchId)).json<{ data: BatchDto }>().data.items[0]!.productTitle).toBe('product');
  });

  it('names each output, its error and the item, its upload and its stage', async () => {
    const { session, imageIds } = await seller(2, 1);
    const batchId = (
      await postBatch(session, {
        items: [{ imageId: imageIds[0] }],
        choice: { mode: 'template', backgroundType: 'marble', count: 2 },
      })
    ).json().data.batchId as string;
    const created = (await getBatch(session, batchId)).json<{ data: BatchDto }>().data;
    const generationId = created.items[0]!.generationId;
    await new GenerationsRepository(testApp.deps.db).failStyle(generationId, 1, 'The model refused');
    await testApp.deps.db
      .updateTable('generations')
      .set({ stage: 'rendering', error: 'One shot failed' })
      .where('id', '=', generationId)
      .execute();
    const batch = (await getBatch(session, batchId)).json<{ data: BatchDto }>().data;
    expect(batch).toMatchObject({
      id: batchId,
      credits: 2,
      choice: { mode: 'template', backgroundType: 'marble', count: 2 },
    });
    expect(Date.parse(batch.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    const [item] = batch.items;
    expect(item).toMatchObject({
      position: 0,
      generationId,
      imageId: imageIds[0],
      productTitle: 'shoe',
      stage: 'rendering',
      error: 'One shot failed',
    });
    expect(item!.thumbnailUrl).toEqual(expect.any(String));
    expect(item!.outputs.map(({ index, name, status, error }) => ({ index, name, status, error }))).toEqual([
      { index: 0, name: item!.outputs[0]!.name, status: 'queued', error: null },
      { index: 1, name: item!.outputs[0]!.name, status: 'failed', error: 'The model refused' },
    ]);
    expect(item!.outputs[0]!.name).toMatch(/marble/i);
  });

  it("answers each refusal with the spec's sentence and code", async () => {
    const { session, imageIds } = await seller(1, 1);
    const batchId = (
      await postBatch(session, {
        items: [{ imageId: imageIds[0] }],
        choice: { mode: 'template', backgroundType: 'studio', count: 1 },
      })
    ).json().data.batchId as string;
    const { archiveUrl } = (await getBatch(session, batchId)).json<{ data: BatchDto }>().data;
    expect(archiveUrl).toBeNull();
    const notReady = await testApp.app.inject({
      method: 'GET',
      url: `/api/batches/${batchId}/archive`,
      headers: session.auth,
    });
    expect(notReady.json()).toMatchObject({
      code: 'batch_not_ready',
      message: 'No shot of this batch is finished yet',
    });
    const unknown = await getBatch(session, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'batch_not_found', message: 'Batch not found' });

    await finish(
      session,
      (await getBatch(session, batchId)).json<{ data: BatchDto }>().data.items[0]!.generationId,
      0,
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#654321' } })
        .png()
        .toBuffer(),
    );
    const link = (await getBatch(session, batchId)).json<{ data: BatchDto }>().data.archiveUrl!;
    const tampered = await testApp.app.inject({ method: 'GET', url: `${link}x` });
    expect(tampered.json()).toMatchObject({ code: 'invalid_signature', message: 'Invalid download link' });
    // The same link, genuine, an hour on (links last 15 minutes).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 60 * 60 * 1000);
      const expired = await testApp.app.inject({ method: 'GET', url: link });
      expect(expired.statusCode).toBe(403);
      expect(expired.json()).toMatchObject({
        code: 'link_expired',
        message: 'This download link has expired: open the batch again for a fresh one',
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('trims a prompt before it reaches the engine', async () => {
    const { session, imageIds } = await seller(1, 1);
    const batchId = (
      await postBatch(session, {
        items: [{ imageId: imageIds[0] }],
        choice: { mode: 'prompt', prompt: '  On a beach at sunset \n', count: 1 },
      })
    ).json().data.batchId as string;
    const [item] = (await getBatch(session, batchId)).json<{ data: BatchDto }>().data.items;
    const job = await testApp.deps.producer.queue('render').getJob(item!.generationId);
    expect(job?.data).toMatchObject({ prompt: 'On a beach at sunset', count: 1 });
  });
});

describe('what a batch announces', () => {
  const reservedTotal = () => creditsReservedTotal(testApp);

  it('counts what it reserves and tells the seller each balance: the charge, then each refund when Redis refuses', async () => {
    const { session, imageIds } = await seller(6, 2);
    const { socket, events } = await connectSocket(testApp, session.token);
    const balances = () => announcedBalances(events);
    try {
      const before = await reservedTotal();
      const charged = await postBatch(session, {
        items: imageIds.map((imageId) => ({ imageId })),
        choice: { mode: 'template', backgroundType: 'studio', count: 2 },
      });
      expect(charged.statusCode, charged.body).toBe(202);
      expect(await reservedTotal()).toBe(before + 4);
      await eventually(() => balances().length === 1, 5_000, 'the charge announced');

      const refusing = vi.spyOn(testApp.deps.producer, 'enqueue').mockRejectedValue(new Error('Connection is closed.'));
      try {
        expect(
          (
            await postBatch(session, {
              items: imageIds.map((imageId) => ({ imageId })),
              choice: { mode: 'template', backgroundType: 'studio', count: 1 },
            })
          ).statusCode,
        ).toBe(503);
      } finally {
        refusing.mockRestore();
      }
      await eventually(() => balances().length === 4, 5_000, 'the refunds announced');
      expect(balances()).toEqual([2, 0, 1, 2]);
      expect(await reservedTotal()).toBe(before + 6);
    } finally {
      socket.disconnect();
    }
  });
});

describe('what each photo of a batch was read as (issue 32: the photo decides, the title is a hint)', () => {
  /** The upload's analysis as a hosted engine records it when its vision model reads the photo as `kind`. */
  async function readAs(imageId: string, kind: string, supported: boolean): Promise<void> {
    const subject = { found: true, needsFocus: false, confidence: 0.9, candidates: [], product: { kind, supported } };
    await testApp.deps.db
      .updateTable('images')
      .set({ subject: JSON.stringify(subject) })
      .where('id', '=', imageId)
      .execute();
  }

  it('refuses with 422, naming the photos read as an unsupported kind, before anything is reserved; the same photos read as supported start', async () => {
    const { session, imageIds } = await seller(10, 3);
    await readAs(imageIds[0]!, 'footwear', true);
    await readAs(imageIds[1]!, 'food', false);
    const body = {
      items: imageIds.map((imageId) => ({ imageId, productTitle: 'Trail runner' })),
      choice: { mode: 'template', backgroundType: 'studio', count: 1 },
    };

    const refused = await postBatch(session, body, 'unsupported-1');

    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'unsupported_product',
      message: 'This product type is currently not supported: take out photo 2 (shoe.jpg) to start the batch.',
      imageIds: [imageIds[1]],
      supportedList: [...SUPPORTED_PRODUCT_LIST],
    });
    expect(await balanceOf(testApp, session.userId)).toBe(10);
    expect(await batchesOf(session.userId)).toEqual([]);

    await readAs(imageIds[1]!, 'beauty', true);
    const started = await postBatch(session, body, 'unsupported-1');
    expect(started.statusCode, started.body).toBe(202);
    expect(await balanceOf(testApp, session.userId)).toBe(7);
  });
});
