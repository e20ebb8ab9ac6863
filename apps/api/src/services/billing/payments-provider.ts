import type { Redis } from 'ioredis';
import type { Config } from '@prodshot/config';
import type { AddOnPack, Plan } from '@prodshot/contracts';
import type { SubscriptionRow } from '@prodshot/db';
import type { AuthUser } from '../auth-user.js';
import type { BillingService } from './billing-service.js';
import { CheckoutClaims } from './checkout-claims.js';
import type { CreditTransactions } from './credit-transactions.js';
import { LocalPaymentsProvider } from './local-payments.js';
import { StripePaymentsProvider } from './stripe-payments.js';

export interface PurchaseResult {
  /** Where the payer goes to pay; null when nothing is left to pay. */
  paymentLink: string | null;
}

/**
 * What the payment routes need of a payment processor. Callers have already refused the plan the
 * user holds; `current` is the user's subscription row, if any.
 */
export interface PaymentsProvider {
  readonly kind: 'stripe' | 'local';
  subscribe(input: {
    user: AuthUser;
    plan: Plan;
    current: SubscriptionRow | undefined;
    idempotencyKey: string | undefined;
  }): Promise<PurchaseResult>;
  buyAddOn(input: {
    user: AuthUser;
    pack: AddOnPack;
    current: SubscriptionRow | undefined;
    idempotencyKey: string | undefined;
  }): Promise<PurchaseResult>;
  /** URL of a page where the user manages billing; null without a billing account. */
  portalSession(input: { user: AuthUser; current: SubscriptionRow | undefined }): Promise<string | null>;
  /** Stops renewal at the end of the paid period; credits stay usable until then. */
  cancelAtPeriodEnd(current: SubscriptionRow): Promise<void>;
}

export function createPaymentsProvider(
  config: Config,
  billing: BillingService,
  transactions: CreditTransactions,
  redis: Redis,
): StripePaymentsProvider | LocalPaymentsProvider {
  const payments = config.payments;
  return payments.mode === 'stripe'
    ? new StripePaymentsProvider(
        config.http.publicUrl,
        payments,
        billing,
        new CheckoutClaims(redis, config.redis.queuePrefix),
      )
    : new LocalPaymentsProvider(config, billing, transactions);
}
