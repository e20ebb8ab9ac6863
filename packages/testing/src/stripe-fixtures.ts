import { readFileSync } from 'node:fs';
import { vendorFixture } from '@prodshot/fixtures';

/** Stripe's own example objects (stripe/openapi fixtures3.json, the ones stripe-mock serves), so the fake answers in Stripe's real shapes. */
export const STRIPE_FIXTURES = vendorFixture('stripe-fixtures3.json');

export type StripeObject = Record<string, unknown>;

/** A fresh copy of Stripe's example object of one resource ('checkout.session', 'invoice', …). */
export function stripeFixture(resource: string): StripeObject {
  const all = JSON.parse(readFileSync(STRIPE_FIXTURES, 'utf8')) as { resources: Record<string, StripeObject> };
  const fixture = all.resources[resource];
  if (!fixture) throw new Error(`no Stripe fixture for ${resource} in ${STRIPE_FIXTURES}`);
  return structuredClone(fixture);
}
