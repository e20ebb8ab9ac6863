import { PLAN_FEATURE_NAMES, PLANS, type Plan, type PlanFeature } from '@prodshot/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { planLines } from '../features/credits/plan-lines.js';
import { stubApi } from '../test-support/fake-api.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { subscriptionOn } from '../test-support/subscriptions.js';
import { PricingPage } from './pricing.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

const FEATURES = Object.keys(PLAN_FEATURE_NAMES) as PlanFeature[];

function renderPricing() {
  stubApi({ 'GET /users/subscription': () => subscriptionOn('none') });
  renderRoutes([{ path: '/pricing', element: <PricingPage /> }], ['/pricing']);
}

/** A card's lines as a reader hears them: lacking features say 'Not included: …'. */
function cardLines(plan: Plan): string[] {
  const card = screen.getByRole('heading', { name: plan.name }).closest('li')!;
  return within(card)
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '');
}

describe('the pricing cards', () => {
  it('claim each gated feature exactly where PLANS, which the server enforces, grants it', () => {
    renderPricing();
    for (const plan of PLANS) {
      const lines = cardLines(plan);
      for (const feature of FEATURES) {
        const name = PLAN_FEATURE_NAMES[feature];
        expect(lines, `${plan.name}: ${name}`).toContain(plan.features[feature] ? name : `Not included: ${name}`);
      }
      expect(lines).toContain(`${plan.monthlyCredits} images a month`);
      expect(lines).toContain(`${plan.quality.name} quality (${plan.quality.size} px)`);
    }
  });

  it("read as the marketing copy promises for today's plans", () => {
    renderPricing();
    const [starter, growth, pro] = PLANS;
    expect(cardLines(starter!)).toEqual([
      '250 images a month',
      'HD quality (2048 px)',
      'Smart generation',
      'All nine templates',
      'Custom background prompts',
      'Not included: Prompt enhancement',
      'Not included: Priority processing',
      '30-day history',
    ]);
    expect(cardLines(growth!)).toEqual([
      '800 images a month',
      'Ultra HD quality (4096 px)',
      'Smart generation',
      'All nine templates',
      'Custom background prompts',
      'Prompt enhancement',
      'Not included: Priority processing',
      'Unlimited history',
    ]);
    expect(cardLines(pro!)).toEqual([
      '1700 images a month',
      'Ultra HD quality (4096 px)',
      'Smart generation',
      'All nine templates',
      'Custom background prompts',
      'Prompt enhancement',
      'Priority processing',
      'Unlimited history',
    ]);
  });

  it("follow a change to a plan's fields, with nothing written per plan", () => {
    const changed: Plan = {
      ...PLANS[0]!,
      monthlyCredits: 300,
      quality: { name: 'Ultra HD', size: 4096 },
      features: { promptEnhancement: false, priorityProcessing: true },
      historyDays: 7,
    };
    expect(planLines(changed)).toEqual([
      { text: '300 images a month', included: true },
      { text: 'Ultra HD quality (4096 px)', included: true },
      { text: 'Smart generation', included: true },
      { text: 'All nine templates', included: true },
      { text: 'Custom background prompts', included: true },
      { text: 'Prompt enhancement', included: false },
      { text: 'Priority processing', included: true },
      { text: '7-day history', included: true },
    ]);
  });
});
