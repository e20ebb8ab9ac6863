import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { planAllows, planRequiredMessage, PLANS, type PlanFeature, type PlanId } from '@prodshot/contracts';
import { jobIds, type QueueName } from '@prodshot/queue';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import { productPhoto } from '../../faults/fault-support.test-support.js';
import { eventually, grantCredits, signIn, upload, type Session } from '../../seller-client.test-support.js';
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

/**
 * What the routes answer each plan, and the worker keeping a seller's place when it fans out. What
 * each start may do on a plan (the place in the queue, the refusals with nothing reserved, the plan
 * in effect after a cancellation) is services/generations/shots-by-plan.int.test.ts.
 */
describe('what each plan may do, read from the same PLANS the pricing cards are written from', () => {
  it('answers prompt enhancement outside its plans with 403 naming the feature and where to upgrade', async () => {
    const refused = await seller('starter');
    expectRefused(await post(refused, '/api/images/enhance-prompt', { prompt: 'Beach sunset' }), 'promptEnhancement');
  });

  it.each(ALL_PLANS)(
    'answers the %s plan as its declared features say',
    async (plan) => {
      const who = await seller(plan);
      const place = planAllows(plan, 'priorityProcessing') ? 'head' : 'tail';

      const manual = await post(who, '/api/images/generate-product-shots', {
        imageId: who.imageId,
        backgroundType: 'studio',
      });
      expect(manual.statusCode, manual.body).toBe(202);

      const flow = await post(who, '/api/images/smart-generate-product-shots', { imageId: who.imageId, styleCount: 1 });
      const recommended = await post(who, '/api/images/generate-product-style-recommendations', {
        imageId: who.imageId,
      });
      const single = await post(who, '/api/images/generate-single-product-shot', {
        imageId: who.imageId,
        generationId: recommended.json().data.generationId,
        styleIndex: 0,
        styleName: 'Beach',
        stylePrompt: 'a beach',
      });
      for (const response of [flow, recommended, single]) expect(response.statusCode, response.body).toBe(202);
      // The server-run flow's style-shots are enqueued by the worker: they keep the seller's place.
      const flowId = flow.json().data.generationId;
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
});
