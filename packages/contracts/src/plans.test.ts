import { describe, expect, it } from 'vitest';
import {
  ADDON_PACKS,
  alreadySubscribedMessage,
  historyDays,
  planAllows,
  planLabel,
  planRequiredMessage,
  PLANS,
  shotSizeFor,
  usagePercent,
} from './plans.js';

describe('plans', () => {
  it('has the three plans of docs/product-spec.md §9 with Growth marked Popular', () => {
    expect(PLANS.map((p) => [p.id, p.priceCents, p.monthlyCredits, p.badge])).toEqual([
      ['starter', 1499, 250, null],
      ['growth', 4999, 800, 'Popular'],
      ['pro', 9999, 1700, null],
    ]);
  });

  it('keeps 30 days of history on Starter and without a plan, all of it on Growth and Pro', () => {
    expect(PLANS.map((p) => [p.id, p.historyDays])).toEqual([
      ['starter', 30],
      ['growth', null],
      ['pro', null],
    ]);
    expect(historyDays('none')).toBe(30);
    expect(historyDays('starter')).toBe(30);
    expect(historyDays('growth')).toBeNull();
    expect(historyDays('pro')).toBeNull();
  });

  it('prices the add-on packs at 6 cents an image', () => {
    expect(ADDON_PACKS.map((p) => [p.id, p.credits, p.priceCents])).toEqual([
      ['addon-100', 100, 600],
      ['addon-500', 500, 3000],
      ['addon-1000', 1000, 6000],
    ]);
  });

  it('labels plans as the header does, anything unknown reading Pro Plan', () => {
    expect(planLabel('none')).toBe('No Subscription');
    expect(planLabel(undefined)).toBe('No Subscription');
    expect(planLabel('starter')).toBe('Starter Plan');
    expect(planLabel('growth')).toBe('Growth Plan');
    expect(planLabel('pro')).toBe('Pro Plan');
  });

  it("words the refusal of the user's own plan as the spec does", () => {
    expect(alreadySubscribedMessage('growth')).toBe('You already have an active subscription to the Growth plan.');
  });
});

describe('usagePercent', () => {
  it('is the share of the allowance spent, rounded', () => {
    expect(usagePercent('growth', 800)).toBe(0);
    expect(usagePercent('growth', 600)).toBe(25);
    expect(usagePercent('starter', 1)).toBe(100);
    expect(usagePercent('starter', 249)).toBe(0);
    expect(usagePercent('pro', 1133)).toBe(33);
  });

  it('clamps to 0–100 when credits exceed the allowance or go below zero', () => {
    expect(usagePercent('starter', 400)).toBe(0);
    expect(usagePercent('starter', -10)).toBe(100);
  });

  it('is 0 without a plan', () => {
    expect(usagePercent('none', 0)).toBe(0);
  });
});

describe('what each plan includes', () => {
  it('gives Growth prompt enhancement, and Pro everything Growth has plus priority processing', () => {
    expect(PLANS.map((p) => [p.id, p.features])).toEqual([
      ['starter', { promptEnhancement: false, priorityProcessing: false }],
      ['growth', { promptEnhancement: true, priorityProcessing: false }],
      ['pro', { promptEnhancement: true, priorityProcessing: true }],
    ]);
  });

  it('allows nothing without a plan, and reads every other plan from PLANS', () => {
    for (const feature of ['promptEnhancement', 'priorityProcessing'] as const) {
      expect(planAllows('none', feature)).toBe(false);
      for (const plan of PLANS) expect(planAllows(plan.id, feature)).toBe(plan.features[feature]);
    }
  });

  it('names the plans that include a feature in its refusal', () => {
    expect(planRequiredMessage('promptEnhancement')).toBe('Prompt enhancement is part of the Growth and Pro plans.');
    expect(planRequiredMessage('priorityProcessing')).toBe('Priority processing is part of the Pro plan.');
  });

  it('sizes shots by plan: 1024 px without one, HD 2048 on Starter, ultra HD 4096 on Growth and Pro', () => {
    expect([shotSizeFor('none'), shotSizeFor('starter'), shotSizeFor('growth'), shotSizeFor('pro')]).toEqual([
      1024, 2048, 4096, 4096,
    ]);
  });
});
