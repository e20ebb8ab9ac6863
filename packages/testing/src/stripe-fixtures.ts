import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** ../shared/vendor-fixtures beside the repository (Stripe's own fixture objects). */
export const VENDOR_FIXTURES_DIR = path.resolve(repoRoot, '..', 'shared', 'vendor-fixtures');
const STRIPE_FIXTURES = path.join(VENDOR_FIXTURES_DIR, 'stripe-fixtures3.json');

export function stripeFixturesAvailable(): boolean {
  return existsSync(STRIPE_FIXTURES);
}

export type StripeObject = Record<string, unknown>;

/** A fresh copy of Stripe's example object of one resource ('checkout.session', 'invoice', …). */
export function stripeFixture(resource: string): StripeObject {
  const all = JSON.parse(readFileSync(STRIPE_FIXTURES, 'utf8')) as { resources: Record<string, StripeObject> };
  const fixture = all.resources[resource];
  if (!fixture) throw new Error(`no Stripe fixture for ${resource} in ${STRIPE_FIXTURES}`);
  return structuredClone(fixture);
}
