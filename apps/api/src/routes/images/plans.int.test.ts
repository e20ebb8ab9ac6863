import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { planAllows, planRequiredMessage, PLANS, type PlanFeature, type PlanId } from '@prodshot/contracts';
import { generationOrder, jobIds, QUEUE_ORDER, type QueueName } from '@prodshot/queue';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import { productPhoto } from '../../faults/fault-support.test-support.js';
import { balanceOf, eventually, grantCredits, signIn, upload, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
const ALL_PLANS: PlanId[] = ['none', ...PLANS.map((plan) => plan.id)];
let testApp: TestApp;
let worker: WorkerProcess;

interface Seller {
  plan: PlanId;
  session: Session;
  imageId: string;
}

async function seller(plan: PlanId): Promise<Seller> {
  const session = await signIn(testApp, `${plan}-${Date.now()}@example.com`, plan === 'none' ? undefined : plan);
  await grantCredits(testApp, session.userId, 10);
  const uploaded = await upload(testApp, session, await productPhoto(), 'box.jpg');
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  return { plan, session, imageId: uploaded.json()._id };
}

function post(who: Seller, url: string, payload: object) {
  return testApp.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...who.session.auth, prefer: 'respond-async' },
  });
}

/** Where a job was put in its queue: the head of the wait list (lifo), or its tail. */
async function placeOf(queue: QueueName, jobId: string): Promise<'head' | 'tail' | undefined> {
  const job = await testApp.deps.producer.queue(queue).getJob(jobId);
  if (!job) return undefined;
  expect(job.opts.priority ?? 0, 'a seller job stays in the wait list').toBe(0);
  return job.opts.lifo ? 'head' : 'tail';
}

function expectRefused(response: { statusCode: number; json(): unknown }, feature: PlanFeature) {
  expect(response.statusCode).toBe(403);
  expect(response.json()).toEqual({
    statusCode: 403,
    error: 'Forbidden',
    message: planRequiredMessage(feature),
    code: 'plan_required',
    feature,
    upgradeUrl: '/pricing',
  });
}

beforeAll(async () => {
  testApp = await buildTestApp(stack, {
    env: { RATE_LIMIT_GENERATIONS_PER_MINUTE: '1000', RATE_LIMIT_FREE_ENGINE_CALLS_PER_MINUTE: '1000' },
  });
  worker = await startWorkerProcess(testApp.env);
}, 60_000);

afterAll(async () => {
  await worker.stop('SIGKILL');
  await testApp.close();
});

describe('what each plan may do, read from the same PLANS the pricing cards are written from', () => {
  it('refuses prompt enhancement outside its plans with nothing reserved and nothing queued', async () => {
    const refused = await seller('starter');
    const before = await balanceOf(testApp, refused.session.userId);
    expectRefused(await post(refused, '/api/images/enhance-prompt', { prompt: 'Beach sunset' }), 'promptEnhancement');
    expect(await balanceOf(testApp, refused.session.userId)).toBe(before);
    const ledger = await testApp.deps.db
      .selectFrom('credit_ledger')
      .select('kind')
      .where('user_id', '=', refused.session.userId)
      .execute();
    expect(ledger.map((row) => row.kind)).toEqual(['grant_addon']);
    expect(
      await testApp.deps.db
        .selectFrom('generations')
        .select('id')
        .where('user_id', '=', refused.session.userId)
        .execute(),
    ).toEqual([]);
    const queued = await Promise.all(
      (['render', 'interactive'] as const).map((name) => testApp.deps.producer.queue(name).getJobs()),
    );
    expect(
      queued.flat().filter((job) => job.data.userId === refused.session.userId && job.name !== 'analyse-upload'),
    ).toEqual([]);
  });

  it.each(ALL_PLANS)(
    'answers the %s plan as its declared features say',
    async (plan) => {
      const who = await seller(plan);
      const place = planAllows(plan, 'priorityProcessing') ? 'head' : 'tail';
      expect(generationOrder(plan)).toBe(place === 'head' ? QUEUE_ORDER.priorityProcessing : QUEUE_ORDER.standard);

      const manual = await post(who, '/api/images/generate-product-shots', {
        imageId: who.imageId,
        backgroundType: 'studio',
      });
      expect(manual.statusCode, manual.body).toBe(202);
      expect(await placeOf('render', manual.json().data.generationId)).toBe(place);

      const flow = await post(who, '/api/images/smart-generate-product-shots', { imageId: who.imageId, styleCount: 1 });
      const recommended = await post(who, '/api/images/generate-product-style-recommendations', {
        imageId: who.imageId,
      });
      // Smart generation is every plan's (the dashboard's first path): only its place in the queue differs.
      const generationId = recommended.json().data.generationId;
      const single = await post(who, '/api/images/generate-single-product-shot', {
        imageId: who.imageId,
        generationId,
        styleIndex: 0,
        styleName: 'Beach',
        stylePrompt: 'a beach',
      });
      for (const response of [flow, recommended, single]) expect(response.statusCode, response.body).toBe(202);
      expect(await placeOf('interactive', generationId)).toBe(place);
      expect(await placeOf('render', jobIds.style(generationId, 0))).toBe(place);
      // The server-run flow's style-shots are enqueued by the worker: they keep the seller's place.
      const flowId = flow.json().data.generationId;
      expect(await placeOf('interactive', flowId)).toBe(place);
      const fannedOut = await eventually(
        () => placeOf('render', jobIds.style(flowId, 0)),
        60_000,
        'the flow to fan out to its style-shot',
      );
      expect(fannedOut).toBe(place);

      const enhance = await post(who, '/api/images/enhance-prompt', { prompt: 'Beach sunset' });
      if (planAllows(plan, 'promptEnhancement')) {
        expect(enhance.statusCode, enhance.body).toBe(200);
        expect(enhance.json().data.enhancedPrompt.length).toBeGreaterThan('Beach sunset'.length);
      } else {
        expectRefused(enhance, 'promptEnhancement');
      }
    },
    120_000,
  );

  it('follows the plan in effect: a cancelled Growth plan keeps prompt enhancement until its paid period ends', async () => {
    const who = await seller('growth');
    const row = await testApp.deps.db
      .selectFrom('subscriptions')
      .select('id')
      .where('user_id', '=', who.session.userId)
      .executeTakeFirstOrThrow();
    const cancel = (periodEnd: Date) =>
      testApp.deps.db
        .updateTable('subscriptions')
        .set({ status: 'canceled', cancel_at_period_end: true, current_period_end: periodEnd })
        .where('id', '=', row.id)
        .execute();
    await cancel(new Date(Date.now() + 86_400_000));
    expect((await post(who, '/api/images/enhance-prompt', { prompt: 'Beach sunset' })).statusCode).toBe(200);
    await cancel(new Date(Date.now() - 1_000));
    expectRefused(await post(who, '/api/images/enhance-prompt', { prompt: 'Beach sunset' }), 'promptEnhancement');
  });
});
