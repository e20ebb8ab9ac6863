import { describe, expect, it } from 'vitest';
import { ADDON_PACKS, alreadySubscribedMessage, historyDays, planLabel, PLANS, usagePercent } from './plans.js';

describe('plans', () => {
  it('has the three plans of spec §9 with Growth marked Popular', () => {
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
