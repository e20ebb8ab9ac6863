import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { planAllows, planRequiredMessage, PLANS, type PlanFeature, type PlanId } from '@prodshot/contracts';
import { generationOrder, jobIds, QUEUE_NAMES, QUEUE_ORDER, type QueueName } from '@prodshot/queue';
import { buildTestServices, refusal, type TestServices } from '../service-deps.test-support.js';

/**
 * What each plan may do, read from the same PLANS the pricing cards are written from, as the starts
 * (shots-service.ts) and the plan in effect (generation-lookups.ts) apply it. The routes' answers
 * and the worker's fan-out keeping the seller's place are routes/images/plans.int.test.ts.
 */
const stack = inject('stack');
const ALL_PLANS: PlanId[] = ['none', ...PLANS.map((plan) => plan.id)];
let t: TestServices;

beforeAll(async () => {
  t = await buildTestServices(stack);
});
afterAll(async () => {
  await t.close();
});

/** A seller on `plan` (active, its allowance spent) with 10 add-on credits and one upload. */
async function seller(plan: PlanId): Promise<{ userId: string; imageId: string }> {
  const userId = await t.newUser(10);
  if (plan !== 'none') await t.deps.repos.subscriptions.activate(userId, { plan, status: 'active', provider: 'local' });
  const { imageId } = await t.newUpload(userId);
  return { userId, imageId };
}

/** Where a job was put in its queue: the head of the wait list (lifo), or its tail. */
async function placeOf(queue: QueueName, jobId: string): Promise<'head' | 'tail' | undefined> {
  const job = await t.deps.producer.queue(queue).getJob(jobId);
  if (!job) return undefined;
  expect(job.opts.priority ?? 0, 'a seller job stays in the wait list').toBe(0);
  return job.opts.lifo ? 'head' : 'tail';
}

async function expectRefused(call: Promise<unknown>, feature: PlanFeature): Promise<void> {
  const error = await refusal(call);
  expect(error).toMatchObject({
    statusCode: 403,
    message: planRequiredMessage(feature),
    code: 'plan_required',
    details: { feature, upgradeUrl: '/pricing' },
  });
}

describe('ShotsService by plan', () => {
  it('refuses prompt enhancement outside its plans with nothing reserved and nothing queued', async () => {
    const { userId } = await seller('starter');
    const before = await t.balance(userId);
    await expectRefused(t.services.shots.startEnhance(userId, { prompt: 'Beach sunset' }), 'promptEnhancement');
    expect(await t.balance(userId)).toBe(before);
    const ledger = await t.deps.db.selectFrom('credit_ledger').select('kind').where('user_id', '=', userId).execute();
    expect(ledger.map((row) => row.kind)).toEqual(['grant_addon']);
    expect(await t.deps.db.selectFrom('generations').select('id').where('user_id', '=', userId).execute()).toEqual([]);
    const queued = await Promise.all(QUEUE_NAMES.map((name) => t.deps.producer.queue(name).getJobs()));
    expect(queued.flat().filter((job) => (job.data as { userId?: string }).userId === userId)).toEqual([]);
  });

  it.each(ALL_PLANS)('places and gates the %s plan as its declared features say', async (plan) => {
    const { userId, imageId } = await seller(plan);
    const place = planAllows(plan, 'priorityProcessing') ? 'head' : 'tail';
    expect(generationOrder(plan)).toBe(place === 'head' ? QUEUE_ORDER.priorityProcessing : QUEUE_ORDER.standard);

    const manual = await t.services.shots.startManual(userId, { imageId, backgroundType: 'studio' });
    expect(await placeOf('render', manual.generationId)).toBe(place);

    // Smart generation is every plan's (the dashboard's first path): only its place in the queue differs.
    const flow = await t.services.shots.startSmart(userId, { imageId, styleCount: 1 });
    const { generationId } = await t.services.shots.startStyle(userId, { imageId });
    await t.services.shots.startSingle(userId, {
      imageId,
      generationId,
      styleIndex: 0,
      styleName: 'Beach',
      stylePrompt: 'a beach',
    });
    expect(await placeOf('interactive', generationId)).toBe(place);
    expect(await placeOf('render', jobIds.style(generationId, 0))).toBe(place);
    expect(await placeOf('interactive', flow.generationId)).toBe(place);

    const enhance = t.services.shots.startEnhance(userId, { prompt: 'Beach sunset' });
    if (planAllows(plan, 'promptEnhancement')) {
      const { jobId } = await enhance;
      expect(await t.queued('enhance-prompt', jobId)).toMatchObject({ data: { userId, prompt: 'Beach sunset' } });
    } else {
      await expectRefused(enhance, 'promptEnhancement');
    }
  });

  it('follows the plan in effect: a cancelled Growth plan keeps prompt enhancement until its paid period ends', async () => {
    const { userId } = await seller('growth');
    const cancel = (periodEnd: Date) =>
      t.deps.db
        .updateTable('subscriptions')
        .set({ status: 'canceled', cancel_at_period_end: true, current_period_end: periodEnd })
        .where('user_id', '=', userId)
        .execute();
    await cancel(new Date(Date.now() + 86_400_000));
    expect(await t.services.lookups.effectivePlan(userId)).toBe('growth');
    const { jobId } = await t.services.shots.startEnhance(userId, { prompt: 'Beach sunset' });
    expect(await t.queued('enhance-prompt', jobId)).toBeDefined();
    await cancel(new Date(Date.now() - 1_000));
    await expectRefused(t.services.shots.startEnhance(userId, { prompt: 'Beach sunset' }), 'promptEnhancement');
  });
});
