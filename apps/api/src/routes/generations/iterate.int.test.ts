import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { INSUFFICIENT_CREDITS_CODE, type GenerationDto } from '@prodshot/contracts';
import { createRepositories, settlement } from '@prodshot/db';
import { startFlakyImageModel, startWorkerProcess, type FlakyImageModel, type WorkerProcess } from '@prodshot/testing';
import { sellerCutout, settled, unlessWorkerDies } from '../../faults/fault-support.test-support.js';
import { balanceOf, eventually, grantCredits, signIn, upload, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
// The model refuses 'Night Market' once and 'Storm Front' every time: two styles fail for real.
const STYLES = [
  { name: 'Sunlit Terrace', prompt: 'terracotta tiles on a sunlit terrace', failures: 0 },
  { name: 'Night Market', prompt: 'a lantern-lit night market stall', failures: 1 },
  { name: 'Storm Front', prompt: 'a storm front over black cliffs', failures: 1_000 },
];
const GRANTED = 10;
/** A tap on the product of sellerCutout (x 210–390, y 120–480 of 600). */
const TAP = { x: 0.5, y: 0.5 };
/** The tap as every later step carries it: the API reads a lone point as one keep tap. */
const TAPS = [{ ...TAP, keep: true }];

let model: FlakyImageModel;
let testApp: TestApp;
let worker: WorkerProcess;
let seller: Session;
let stranger: Session;
let smartId: string;

const post = (session: Session, url: string, headers: Record<string, string> = {}) =>
  testApp.app.inject({ method: 'POST', url, headers: { ...session.auth, ...headers } });
const retry = (session: Session, id: string, index: number) =>
  post(session, `/api/generations/${id}/styles/${index}/retry`);
const moreLikeThis = (session: Session, id: string, index: number, headers?: Record<string, string>) =>
  post(session, `/api/generations/${id}/outputs/${index}/more-like-this`, headers);

async function generation(id: string): Promise<GenerationDto> {
  const response = await testApp.app.inject({ method: 'GET', url: `/api/generations/${id}`, headers: seller.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: GenerationDto }>().data;
}

function indexOf(run: GenerationDto, name: string): number {
  return run.styles.find((style) => style.name === name)!.index;
}

async function ledgerKeys(generationId: string) {
  const rows = await testApp.deps.db
    .selectFrom('credit_ledger')
    .select(['kind', 'idempotency_key'])
    .where('generation_id', '=', generationId)
    .execute();
  return rows.map((row) => `${row.kind} ${row.idempotency_key}`);
}

beforeAll(async () => {
  model = await startFlakyImageModel(STYLES);
  testApp = await buildTestApp(stack, {
    env: { IMAGE_MODEL: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: model.baseUrl },
  });
  seller = await signIn(testApp, 'iterate@example.com');
  stranger = await signIn(testApp, 'iterate-stranger@example.com');
  await grantCredits(testApp, seller.userId, GRANTED);
  await grantCredits(testApp, stranger.userId, GRANTED);
  const imageId = (await upload(testApp, seller, await sellerCutout('#7a3'), 'serum.png')).json<{ _id: string }>()._id;
  worker = await startWorkerProcess(testApp.env);
  await eventually(
    async () =>
      (await testApp.app.inject({ method: 'GET', url: `/api/images/${imageId}/subject`, headers: seller.auth })).json()
        .data.status === 'ready',
    60_000,
    'the upload to be analysed',
  );
  // With the seller's tap, as the tap step sends it: a new take and a retry must cut out the same product.
  const started = await testApp.app.inject({
    method: 'POST',
    url: '/api/images/smart-generate-product-shots',
    headers: seller.auth,
    payload: { imageId, styleCount: STYLES.length, focus: TAP },
  });
  expect(started.statusCode, started.body).toBe(202);
  smartId = started.json().data.generationId;
  await unlessWorkerDies(worker, settled(testApp, smartId, 90_000));
}, 180_000);

afterAll(async () => {
  await worker?.stop('SIGKILL');
  await model?.close();
  await testApp?.close();
});

describe('retry of a failed smart style', () => {
  it('starts from a run whose refused styles failed and were refunded', async () => {
    const run = await generation(smartId);
    expect(run.styles.map((style) => [style.name, style.status])).toEqual(
      STYLES.map((style) => [style.name, style.failures ? 'failed' : 'complete']),
    );
    expect(await balanceOf(testApp, seller.userId)).toBe(GRANTED - 1);
  });

  it('costs nothing when it fails again: its own reservation is refunded', async () => {
    const index = indexOf(await generation(smartId), 'Storm Front');
    const response = await retry(seller, smartId, index);
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json().data).toEqual({ generationId: smartId, index, attempt: 1, status: 'queued' });
    await unlessWorkerDies(worker, settled(testApp, smartId, 60_000));
    expect((await generation(smartId)).styles[index]).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/declined|safety|rejected/i),
    });
    expect(await balanceOf(testApp, seller.userId)).toBe(GRANTED - 1);
    expect(await ledgerKeys(smartId)).toEqual(
      expect.arrayContaining([
        `reserve reserve:${smartId}:${index}:retry-1`,
        `refund refund:${smartId}:${index}:retry-1`,
      ]),
    );
  });

  it('queues a failed style once however many retries race (the rest 409), and a keyed retry replayed answers the same attempt, reserved once', async () => {
    const index = indexOf(await generation(smartId), 'Storm Front');
    const before = await balanceOf(testApp, seller.userId);
    const raced = await Promise.all(Array.from({ length: 4 }, () => retry(seller, smartId, index)));
    const statuses = raced.map((response) => response.statusCode);
    expect(statuses, raced.map((response) => response.body).join('\n')).toContain(202);
    expect(statuses).toContain(409);
    expect(statuses.every((status) => status === 202 || status === 409)).toBe(true);
    for (const response of raced.filter((r) => r.statusCode === 409))
      expect(response.json().code).toBe('style_not_failed');
    await unlessWorkerDies(worker, settled(testApp, smartId, 60_000));

    const keyed = { 'idempotency-key': `retry-${smartId}-${index}` };
    const first = await post(seller, `/api/generations/${smartId}/styles/${index}/retry`, keyed);
    expect(first.statusCode, first.body).toBe(202);
    const replay = await post(seller, `/api/generations/${smartId}/styles/${index}/retry`, keyed);
    expect(replay.statusCode, replay.body).toBe(202);
    expect(replay.json().data).toMatchObject({ generationId: smartId, index, attempt: first.json().data.attempt });
    const attempt = first.json().data.attempt as number;
    expect(
      (await ledgerKeys(smartId)).filter((key) => key === `reserve reserve:${smartId}:${index}:retry-${attempt}`),
    ).toHaveLength(1);
    await unlessWorkerDies(worker, settled(testApp, smartId, 60_000));
    // Every attempt failed and was refunded.
    expect(await balanceOf(testApp, seller.userId)).toBe(before);
  });

  it('refuses a retry the credits do not cover with 402, leaving the style failed', async () => {
    const index = indexOf(await generation(smartId), 'Storm Front');
    // Every credit the seller has held by other work of theirs, released after.
    const repos = createRepositories(testApp.deps.db);
    const holder = await repos.generations.create({
      userId: seller.userId,
      imageId: null,
      kind: 'manual',
      stage: null,
      request: {},
      slots: [{ index: 0, name: 'Studio', prompt: null, backgroundType: 'studio' }],
    });
    await repos.credits.reserve({
      userId: seller.userId,
      generationId: holder.id,
      amount: await balanceOf(testApp, seller.userId),
      idempotencyKey: `hold:${holder.id}`,
    });
    try {
      const response = await retry(seller, smartId, index);
      expect([response.statusCode, response.json().code], response.body).toEqual([402, INSUFFICIENT_CREDITS_CODE]);
      expect((await generation(smartId)).styles[index]!.status).toBe('failed');
    } finally {
      await settlement.abandonGeneration(
        { db: testApp.deps.db, repos: createRepositories(testApp.deps.db) },
        { userId: seller.userId, generationId: holder.id },
        'released by the test',
      );
    }
  });

  it('costs what the style costs when it succeeds, settled under its own attempt', async () => {
    const index = indexOf(await generation(smartId), 'Night Market');
    const response = await retry(seller, smartId, index);
    expect(response.statusCode, response.body).toBe(202);
    await unlessWorkerDies(worker, settled(testApp, smartId, 60_000));
    const run = await generation(smartId);
    expect(run.status).toBe('complete');
    expect(run.styles[index]).toMatchObject({
      status: 'complete',
      error: null,
      url: expect.any(String),
      seed: expect.any(Number),
    });
    expect(await balanceOf(testApp, seller.userId)).toBe(GRANTED - 2);
    expect(await ledgerKeys(smartId)).toContain(`settle settle:${smartId}:${index}:retry-1`);
    // The retry rendered from the tapped cutout, as the first attempt did.
    // Polled: BullMQ files a job completed a moment after Postgres has settled what it made.
    const attemptFoci = async () => {
      const jobs = await testApp.deps.producer.queue('render').getJobs(['completed', 'failed']);
      return jobs
        .filter((job) => job.name === 'style-shot' && job.data.styleIndex === index)
        .map((job) => job.data.focus);
    };
    await expect.poll(attemptFoci, { timeout: 5_000 }).toEqual([TAPS, TAPS]);
    // The model was asked again for that style: the retry really rendered.
    expect(model.edits.filter((prompt) => prompt === STYLES[1]!.prompt)).toHaveLength(2);
  });

  it('refuses a style that did not fail (409), another seller (404) and an index out of range (400) or absent (404)', async () => {
    const done = indexOf(await generation(smartId), 'Sunlit Terrace');
    const notFailed = await retry(seller, smartId, done);
    expect([notFailed.statusCode, notFailed.json().code, notFailed.json().message]).toEqual([
      409,
      'style_not_failed',
      'This style is done: only a failed style can be retried',
    ]);
    const storm = indexOf(await generation(smartId), 'Storm Front');
    const foreign = await retry(stranger, smartId, storm);
    expect([foreign.statusCode, foreign.json().code]).toEqual([404, 'generation_not_found']);
    expect((await retry(seller, smartId, 9)).statusCode).toBe(400);
    expect((await retry(seller, smartId, -1)).statusCode).toBe(400);
    const absent = await retry(seller, smartId, 5);
    expect([absent.statusCode, absent.json().code]).toEqual([404, 'output_not_found']);
    expect((await retry(seller, 'not-a-generation', 0)).statusCode).toBe(404);
    expect(await balanceOf(testApp, seller.userId)).toBe(GRANTED - 2);
    expect(await balanceOf(testApp, stranger.userId)).toBe(GRANTED);
  });
});

describe('more like this', () => {
  it('makes a new generation of one output in the same scene with a new seed, for one credit, once per Idempotency-Key', async () => {
    const run = await generation(smartId);
    const index = indexOf(run, 'Sunlit Terrace');
    const key = { 'idempotency-key': 'more-like-this-1' };
    const first = await moreLikeThis(seller, smartId, index, key);
    expect(first.statusCode, first.body).toBe(202);
    const again = await moreLikeThis(seller, smartId, index, key);
    expect(again.json().data).toEqual(first.json().data);
    const { generationId, seed, from } = first.json().data;
    expect(from).toEqual({ generationId: smartId, index });
    expect(generationId).not.toBe(smartId);
    await unlessWorkerDies(worker, settled(testApp, generationId, 60_000));
    const made = await generation(generationId);
    expect(made).toMatchObject({
      kind: 'manual',
      status: 'complete',
      origin: { generationId: smartId, index },
      imageId: run.imageId,
    });
    expect(made.styles).toEqual([
      expect.objectContaining({ name: 'Sunlit Terrace', prompt: STYLES[0]!.prompt, status: 'complete', seed }),
    ]);
    expect(seed).not.toBe(run.styles[index]!.seed);
    const row = await testApp.deps.db
      .selectFrom('generations')
      .select('request')
      .where('id', '=', generationId)
      .executeTakeFirstOrThrow();
    expect(row.request).toMatchObject({ seed, from: { generationId: smartId, index }, focus: TAPS });
    const job = await testApp.deps.producer.queue('render').getJob(generationId);
    expect(job?.data).toMatchObject({ seed, focus: TAPS, count: 1, prompt: STYLES[0]!.prompt });
    expect(model.edits.at(-1)).toBe(STYLES[0]!.prompt);
    expect(await balanceOf(testApp, seller.userId)).toBe(GRANTED - 3);
    expect((await ledgerKeys(generationId)).filter((row) => row.startsWith('reserve'))).toHaveLength(1);
  });

  it("answers 404 for another seller's output, 409 for a failed one, 400 for a bad index; retrying its output is refused", async () => {
    const run = await generation(smartId);
    const foreign = await moreLikeThis(stranger, smartId, 0);
    expect([foreign.statusCode, foreign.json().code]).toEqual([404, 'generation_not_found']);
    const storm = await moreLikeThis(seller, smartId, indexOf(run, 'Storm Front'));
    expect([storm.statusCode, storm.json().code]).toEqual([409, 'output_not_ready']);
    expect((await moreLikeThis(seller, smartId, 6)).statusCode).toBe(400);
    expect((await moreLikeThis(seller, smartId, 4)).json().code).toBe('output_not_found');
    const made = (
      await moreLikeThis(seller, smartId, indexOf(run, 'Sunlit Terrace'), { 'idempotency-key': 'more-like-this-1' })
    ).json().data.generationId;
    const notSmart = await retry(seller, made, 0);
    expect([notSmart.statusCode, notSmart.json().code]).toEqual([409, 'not_retryable']);
    expect(await balanceOf(testApp, seller.userId)).toBe(GRANTED - 3);
    expect(await balanceOf(testApp, stranger.userId)).toBe(GRANTED);
  });
});

describe('the OpenAPI document', () => {
  it('lists both calls with their path parameters and their 202 and error response schemas', async () => {
    const document = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, Record<string, unknown>>>;
    }>();
    const cases: [string, string[]][] = [
      ['/api/generations/{id}/outputs/{index}/more-like-this', ['generationId', 'status', 'from', 'seed']],
      ['/api/generations/{id}/styles/{index}/retry', ['generationId', 'index', 'attempt', 'status']],
    ];
    for (const [path, fields] of cases) {
      const operation = document.paths[path]?.post as {
        parameters: { name: string }[];
        responses: Record<
          string,
          { content: Record<string, { schema: { properties: Record<string, { properties?: object }> } }> }
        >;
      };
      expect(operation, path).toBeDefined();
      // Both take an Idempotency-Key, documented as a header beside the path parameters.
      expect(operation.parameters.map((parameter) => parameter.name).sort()).toEqual([
        'Idempotency-Key',
        'id',
        'index',
      ]);
      const accepted = operation.responses['202']!.content['application/json']!.schema.properties.data!.properties!;
      expect(Object.keys(accepted)).toEqual(fields);
      // 401, 403 and 503 are declared on every secured operation.
      expect(Object.keys(operation.responses).sort()).toEqual([
        '202',
        '400',
        '401',
        '402',
        '403',
        '404',
        '409',
        '422',
        '429',
        '503',
      ]);
    }
  });
});
