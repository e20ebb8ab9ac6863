import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BUY_CREDITS_URL, type PaidPlanId } from '@prodshot/contracts';
import { jobIds, QUEUE_ORDER } from '@prodshot/queue';
import { productPhoto } from '../../faults/fault-support.test-support.js';
import { grantCredits, signIn, upload, type Session } from '../../seller-client.test-support.js';
import { FreeAllowanceCounter } from '../../services/billing/free-allowance-counter.js';
import { freeAllowanceSpentMessage } from '../../services/billing/free-allowance.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
const ANALYSES = 3;
const RECOMMENDATIONS = 2;
let testApp: TestApp;
let photo: Buffer;

beforeAll(async () => {
  // No worker: every job stays where the API put it, so its place can be read.
  testApp = await buildTestApp(stack, {
    env: {
      FREE_ANALYSES_PER_DAY: String(ANALYSES),
      FREE_RECOMMENDATIONS_PER_DAY: String(RECOMMENDATIONS),
      RATE_LIMIT_FREE_ENGINE_CALLS_PER_MINUTE: '1000',
      RATE_LIMIT_UPLOADS_PER_MINUTE: '1000',
    },
  });
  photo = await productPhoto();
}, 60_000);

afterAll(async () => {
  await testApp.close();
});

async function seller(name: string, plan?: PaidPlanId): Promise<Session> {
  return signIn(testApp, `${name}-${Date.now()}@example.com`, plan);
}

async function uploaded(session: Session): Promise<string> {
  const response = await upload(testApp, session, photo, 'box.jpg');
  expect(response.statusCode, response.body).toBe(201);
  return response.json()._id;
}

function subject(session: Session, imageId: string) {
  return testApp.app.inject({ method: 'GET', url: `/api/images/${imageId}/subject`, headers: session.auth });
}

function recommend(session: Session, imageId: string) {
  return testApp.app.inject({
    method: 'POST',
    url: '/api/images/generate-product-style-recommendations',
    payload: { imageId },
    headers: { ...session.auth, prefer: 'respond-async' },
  });
}

/** The BullMQ options the upload's analysis job was queued with; undefined when none was queued. */
async function analysisJob(imageId: string) {
  return (await testApp.deps.producer.queue('interactive').getJob(jobIds.analyseUpload(imageId)))?.opts;
}

async function recommendationJob(response: { json(): { data: { generationId: string } } }) {
  return (await testApp.deps.producer.queue('interactive').getJob(jobIds.generation(response.json().data.generationId)))
    ?.opts;
}

function spent(work: 'analysis' | 'recommendation', perDay: number) {
  return {
    statusCode: 402,
    error: 'Payment Required',
    code: 'insufficient_credits',
    message: freeAllowanceSpentMessage(work, perDay),
    needed: 1,
    available: 0,
    shortfall: 1,
    buyCreditsUrl: BUY_CREDITS_URL,
  };
}

describe('the free allowance of an account with no plan and no credits', () => {
  it(`analyses exactly ${ANALYSES} uploads a day behind paying sellers; the next is stored unanalysed and its subject answers 402 with where to buy credits`, async () => {
    const free = await seller('free-analyses');
    const first = await uploaded(free);
    // The web app polls a pending subject: asking again for the same upload uses nothing more.
    for (let poll = 0; poll < 3; poll += 1) expect((await subject(free, first)).json().data.status).toBe('pending');
    const images = [first, await uploaded(free), await uploaded(free)];
    for (const imageId of images) expect(await analysisJob(imageId)).toMatchObject(QUEUE_ORDER.freeAccount);

    const past = await uploaded(free);
    expect(await analysisJob(past), 'no analysis queued past the allowance').toBeUndefined();
    const refused = await subject(free, past);
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual(spent('analysis', ANALYSES));
    expect(await analysisJob(past)).toBeUndefined();
    // Uploads analysed within the allowance keep answering.
    expect((await subject(free, first)).statusCode).toBe(200);
  });

  it(`gives exactly ${RECOMMENDATIONS} style recommendations a day behind paying sellers, then 402 with nothing opened`, async () => {
    const free = await seller('free-recommendations');
    const imageId = await uploaded(free);
    for (let call = 0; call < RECOMMENDATIONS; call += 1) {
      const response = await recommend(free, imageId);
      expect(response.statusCode, response.body).toBe(202);
      expect(await recommendationJob(response)).toMatchObject(QUEUE_ORDER.freeAccount);
    }
    const generations = () =>
      testApp.deps.db.selectFrom('generations').select('id').where('user_id', '=', free.userId).execute();
    const opened = (await generations()).length;
    const refused = await recommend(free, imageId);
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual(spent('recommendation', RECOMMENDATIONS));
    expect(await generations()).toHaveLength(opened);
  });

  it('analyses and recommends again, at a paying seller’s place, once the seller buys credits', async () => {
    const free = await seller('buys-credits');
    const images = [];
    for (let n = 0; n <= ANALYSES; n += 1) images.push(await uploaded(free));
    const past = images.at(-1)!;
    for (let call = 0; call < RECOMMENDATIONS; call += 1) expect((await recommend(free, past)).statusCode).toBe(202);
    expect((await subject(free, past)).statusCode).toBe(402);
    expect((await recommend(free, past)).statusCode).toBe(402);

    await grantCredits(testApp, free.userId, 5);
    const analysed = await subject(free, past);
    expect(analysed.statusCode, analysed.body).toBe(200);
    expect(analysed.json().data.status).toBe('pending');
    const job = await analysisJob(past);
    expect(job, 'the analysis is queued now').toBeDefined();
    expect(job!.priority ?? 0, 'in the wait list with paying sellers').toBe(0);
    const later = await uploaded(free);
    expect((await analysisJob(later))!.priority ?? 0).toBe(0);
    const recommended = await recommend(free, past);
    expect(recommended.statusCode, recommended.body).toBe(202);
    expect((await recommendationJob(recommended))!.priority ?? 0).toBe(0);
  });

  it.each([
    ['a plan and no credits', 'starter' as const, 0],
    ['credits and no plan', undefined, 1],
  ])('never limits a seller with %s', async (_, plan, credits) => {
    const paying = await seller(`paying-${plan ?? 'credits'}`, plan);
    if (credits) await grantCredits(testApp, paying.userId, credits);
    for (let n = 0; n < ANALYSES + 2; n += 1) {
      const imageId = await uploaded(paying);
      expect((await analysisJob(imageId))!.priority ?? 0).toBe(0);
      expect((await subject(paying, imageId)).statusCode).toBe(200);
    }
    const imageId = await uploaded(paying);
    for (let call = 0; call < RECOMMENDATIONS + 2; call += 1) {
      const response = await recommend(paying, imageId);
      expect(response.statusCode, response.body).toBe(202);
      expect((await recommendationJob(response))!.priority ?? 0).toBe(0);
    }
  });
});

describe('the free allowance counter', () => {
  it('counts each UTC day on its own and each use once', async () => {
    const counter = new FreeAllowanceCounter(testApp.deps.redis, testApp.deps.config.redis.queuePrefix);
    const take = (useId: string, now: Date) =>
      counter.take({ userId: 'counted', work: 'analysis', useId, limit: 2, now });
    const lateOnDay = new Date('2026-11-24T23:59:59Z');
    expect(await take('a', lateOnDay)).toBe(true);
    expect(await take('a', lateOnDay)).toBe(true);
    expect(await take('b', lateOnDay)).toBe(true);
    expect(await take('c', lateOnDay)).toBe(false);
    expect(await take('a', lateOnDay), 'a use already counted stays allowed').toBe(true);
    expect(await take('c', new Date('2026-11-25T00:00:00Z')), 'the next UTC day starts afresh').toBe(true);
    expect(
      await counter.take({ userId: 'counted', work: 'recommendation', useId: 'c', limit: 2, now: lateOnDay }),
      'each kind of work has its own allowance',
    ).toBe(true);
  });
});
