import { randomUUID } from 'node:crypto';
import {
  planAllowance,
  type AddOnPack,
  type PaidPlanId,
  type PlanId,
  type SubscriptionInfo,
  type SubscriptionStatus,
} from '@prodshot/contracts';
import type { GrantInput, Repositories, SubscriptionRow } from '@prodshot/db';
import type { CreditChanges } from './credit-transactions.js';

// What a subscription row means (running, ended, the plan in effect) and the moves every payments
// provider makes on it (activation, a new period, the end) with their credit grants: one set of
// rules, so that Stripe and the local provider cannot drift apart.

/** The payments that paid a grant (the ledger's purchase record), which refunds and disputes find it by. */
export type GrantPurchase = NonNullable<GrantInput['purchase']>;

/** A paid period's bounds, as far as the provider has told them. */
export interface PeriodDates {
  start: Date | null;
  end: Date | null;
}

/** The local provider's billing period: there is no payment processor to define one. */
export const LOCAL_PERIOD_DAYS = 30;

export function subscriptionInfo(row: SubscriptionRow | undefined): SubscriptionInfo {
  if (!row)
    return {
      plan: 'none',
      status: 'none',
      startDate: null,
      endDate: null,
      pendingPlan: null,
      cancelAtPeriodEnd: false,
    };
  return {
    plan: row.plan,
    status: row.status as SubscriptionStatus,
    startDate: (row.current_period_start ?? row.created_at).toISOString(),
    endDate: row.current_period_end?.toISOString() ?? null,
    pendingPlan: row.pending_plan,
    cancelAtPeriodEnd: row.cancel_at_period_end,
  };
}

/** Paid for and not cancelled: buying the same plan again is refused. */
export function isActive(row: SubscriptionRow | undefined): row is SubscriptionRow {
  return row?.status === 'active' && row.plan !== 'none';
}

/** The plan held, with no change pending: choosing it again buys nothing (with a change pending, it withdraws the change). */
export function holdsPlan(row: SubscriptionRow | undefined, plan: PaidPlanId): row is SubscriptionRow {
  return isActive(row) && row.plan === plan && row.pending_plan === null;
}

/** Still inside a paid period, cancelled or not: buying again resumes or changes it instead of paying twice. */
export function isRunning(row: SubscriptionRow | undefined, now = new Date()): row is SubscriptionRow {
  if (!row || row.plan === 'none') return false;
  if (row.status === 'active' || row.status === 'trialing') return true;
  return row.cancel_at_period_end && row.current_period_end !== null && row.current_period_end > now;
}

/**
 * The plan whose history a seller keeps: the running plan, and also a plan whose renewal failed
 * and is being retried, since expired history is deleted for good (history-retention.ts in db).
 */
export function historyPlan(row: SubscriptionRow | undefined, now = new Date()): PlanId {
  if (!row) return 'none';
  const beingRetried = row.status === 'past_due' || row.status === 'unpaid';
  return beingRetried || isRunning(row, now) ? row.plan : 'none';
}

/** The plan whose quality and features apply now (docs/decisions.md, Money: a cancelled plan lasts to its period's end). */
export function effectivePlan(row: SubscriptionRow | undefined, now = new Date()): PlanId {
  return isRunning(row, now) ? row.plan : 'none';
}

/** Over for good: deleted at the provider, or its first payment never came. Nothing revives it. */
export function hasEnded(row: SubscriptionRow): boolean {
  return row.status === 'incomplete_expired' || (row.status === 'canceled' && !row.cancel_at_period_end);
}

/** Holds a provider subscription that is not over: a second one would make the customer pay twice. */
export function holdsLiveSubscription(
  row: SubscriptionRow | undefined,
): row is SubscriptionRow & { provider_subscription_id: string } {
  return row !== undefined && row.provider_subscription_id !== null && !hasEnded(row);
}

export interface Activation {
  userId: string;
  plan: PaidPlanId;
  provider: 'stripe' | 'local';
  providerCustomerId?: string | null;
  providerSubscriptionId?: string | null;
  periodStart?: Date | null;
  periodEnd?: Date | null;
  /** One allowance per paid period: a replay with the same key moves nothing. */
  grantKey: string;
  /** A grant paid through the provider: refunds and disputes of these payments take it back. */
  purchase?: GrantPurchase;
}

/** A paid plan begins: the row becomes active and subscription credits become the allowance. */
export async function activatePlan(
  repos: Repositories,
  credits: CreditChanges,
  activation: Activation,
): Promise<SubscriptionRow> {
  const row = await repos.subscriptions.activate(activation.userId, {
    plan: activation.plan,
    status: 'active',
    provider: activation.provider,
    providerCustomerId: activation.providerCustomerId ?? null,
    providerSubscriptionId: activation.providerSubscriptionId ?? null,
    currentPeriodStart: activation.periodStart ?? null,
    currentPeriodEnd: activation.periodEnd ?? null,
  });
  await credits.resetSubscription({
    userId: activation.userId,
    amount: planAllowance(activation.plan),
    idempotencyKey: activation.grantKey,
    reason: `${activation.plan} plan period`,
    ...(activation.purchase ? { purchase: activation.purchase } : {}),
  });
  return row;
}

/**
 * A new paid period of an existing subscription: a pending plan change takes effect now (FAQ:
 * next billing cycle) and subscription credits become that plan's allowance, without rollover.
 */
export async function startNewPeriod(
  repos: Repositories,
  credits: CreditChanges,
  row: SubscriptionRow,
  period: PeriodDates & { grantKey: string; purchase?: GrantPurchase },
): Promise<SubscriptionRow> {
  // An ended subscription stays ended; a late invoice for a period already superseded must neither
  // move the dates back nor hand out that older period's allowance again.
  if (hasEnded(row)) return row;
  if (period.end && row.current_period_start && period.end <= row.current_period_start) return row;
  const plan: PlanId = row.pending_plan ?? row.plan;
  const updated = await repos.subscriptions.update(row.id, {
    plan,
    pendingPlan: null,
    status: row.cancel_at_period_end ? 'canceled' : 'active',
    currentPeriodStart: period.start,
    currentPeriodEnd: period.end,
  });
  await credits.resetSubscription({
    userId: row.user_id,
    amount: planAllowance(plan),
    idempotencyKey: period.grantKey,
    reason: `${plan} plan period`,
    ...(period.purchase ? { purchase: period.purchase } : {}),
  });
  return updated ?? row;
}

/**
 * The paid period is over and nothing follows it: the plan's quality goes (the row reads ended)
 * and subscription credits go to 0; add-on credits stay (docs/decisions.md, Money).
 */
export async function endSubscription(
  repos: Repositories,
  credits: CreditChanges,
  row: SubscriptionRow,
  endKey: string,
): Promise<void> {
  await repos.subscriptions.update(row.id, { status: 'canceled', cancelAtPeriodEnd: false, pendingPlan: null });
  await credits.expireSubscription({ userId: row.user_id, idempotencyKey: endKey, reason: `${row.plan} plan ended` });
}

export async function grantAddOnPack(
  credits: CreditChanges,
  input: { userId: string; pack: AddOnPack; grantKey: string; purchase?: GrantPurchase },
): Promise<void> {
  await credits.grantAddOn({
    userId: input.userId,
    amount: input.pack.credits,
    idempotencyKey: input.grantKey,
    reason: input.pack.id,
    ...(input.purchase ? { purchase: input.purchase } : {}),
  });
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 24 * 3600 * 1000);
}

/** A caller-supplied Idempotency-Key makes a repeated local purchase (a double click) grant once. */
export function localGrantKey(kind: string, userId: string, idempotencyKey: string | undefined): string {
  return `local:${kind}:${userId}:${idempotencyKey ?? randomUUID()}`;
}
