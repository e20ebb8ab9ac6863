import { randomUUID } from 'node:crypto';
import {
  planAllowance,
  type AddOnPack,
  type PaidPlanId,
  type PlanId,
  type SubscriptionInfo,
  type SubscriptionResponse,
  type SubscriptionStatus,
} from '@prodshot/contracts';
import { CreditsRepository, SubscriptionsRepository, type SubscriptionRow } from '@prodshot/db';
import type { AppDeps } from '../deps.js';
import { runCreditTransaction, type BillingTx, type CreditChanges } from './credits-events.js';

/** The local provider's billing period: there is no payment processor to define one. */
export const LOCAL_PERIOD_DAYS = 30;

export function subscriptionInfo(row: SubscriptionRow | undefined): SubscriptionInfo {
  if (!row) return { plan: 'none', status: 'none', startDate: null, endDate: null, pendingPlan: null, cancelAtPeriodEnd: false };
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

/** Still inside a paid period, cancelled or not: buying again resumes or changes it instead of paying twice. */
export function isRunning(row: SubscriptionRow | undefined, now = new Date()): row is SubscriptionRow {
  if (!row || row.plan === 'none') return false;
  if (row.status === 'active') return true;
  return row.cancel_at_period_end && row.current_period_end !== null && row.current_period_end > now;
}

export async function subscriptionResponse(deps: AppDeps, userId: string): Promise<SubscriptionResponse> {
  await renewLocalIfDue(deps, userId);
  const [row, balance] = await Promise.all([new SubscriptionsRepository(deps.db).findByUserId(userId), new CreditsRepository(deps.db).balance(userId)]);
  const subscription = subscriptionInfo(row);
  return {
    subscription,
    subscriptionCredits: balance.subscriptionCredits,
    addOnCredits: balance.addOnCredits,
    currentPlan: subscription.plan,
    isActive: subscription.status === 'active',
  };
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
}

/** A paid plan begins: the row becomes active and subscription credits become the allowance. */
export async function activatePlan(tx: BillingTx, credits: CreditChanges, activation: Activation): Promise<SubscriptionRow> {
  const row = await new SubscriptionsRepository(tx).activate(activation.userId, {
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
  });
  return row;
}

/**
 * A new paid period of an existing subscription: a pending plan change takes effect now (FAQ:
 * next billing cycle) and subscription credits become that plan's allowance, without rollover.
 */
export async function startNewPeriod(
  tx: BillingTx,
  credits: CreditChanges,
  row: SubscriptionRow,
  period: { start: Date | null; end: Date | null; grantKey: string },
): Promise<SubscriptionRow> {
  // A late invoice for a period already superseded must neither move the dates back nor hand out
  // that older period's allowance again.
  if (period.end && row.current_period_start && period.end <= row.current_period_start) return row;
  const plan: PlanId = row.pending_plan ?? row.plan;
  const updated = await new SubscriptionsRepository(tx).update(row.id, {
    plan,
    pendingPlan: null,
    status: row.cancel_at_period_end ? 'canceled' : 'active',
    currentPeriodStart: period.start,
    currentPeriodEnd: period.end,
  });
  await credits.resetSubscription({ userId: row.user_id, amount: planAllowance(plan), idempotencyKey: period.grantKey, reason: `${plan} plan period` });
  return updated ?? row;
}

export async function grantAddOnPack(credits: CreditChanges, input: { userId: string; pack: AddOnPack; grantKey: string }): Promise<void> {
  await credits.grantAddOn({ userId: input.userId, amount: input.pack.credits, idempotencyKey: input.grantKey, reason: input.pack.id });
}

/** Plan change inside a running period: the new plan waits for the next cycle; a cancellation is withdrawn. */
export async function scheduleChange(deps: AppDeps, row: SubscriptionRow, plan: PaidPlanId): Promise<void> {
  await new SubscriptionsRepository(deps.db).update(row.id, {
    status: 'active',
    cancelAtPeriodEnd: false,
    pendingPlan: plan === row.plan ? null : plan,
  });
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 24 * 3600 * 1000);
}

/**
 * The local provider has no processor to announce a new period, so periods roll when the
 * subscription is next read: each elapsed period resets the allowance once (keyed by its start).
 */
export async function renewLocalIfDue(deps: AppDeps, userId: string, now = new Date()): Promise<void> {
  const row = await new SubscriptionsRepository(deps.db).findByUserId(userId);
  if (!row || row.provider !== 'local' || !row.current_period_end || row.current_period_end > now) return;
  if (row.cancel_at_period_end || row.status !== 'active') {
    if (row.status !== 'canceled' || row.cancel_at_period_end) {
      await new SubscriptionsRepository(deps.db).update(row.id, { status: 'canceled', cancelAtPeriodEnd: false });
    }
    return;
  }
  let start = row.current_period_end;
  while (addDays(start, LOCAL_PERIOD_DAYS) <= now) start = addDays(start, LOCAL_PERIOD_DAYS);
  const end = addDays(start, LOCAL_PERIOD_DAYS);
  await runCreditTransaction(deps, (tx, credits) =>
    startNewPeriod(tx, credits, row, { start, end, grantKey: `local:period:${row.id}:${start.toISOString()}` }),
  );
}

/** A caller-supplied Idempotency-Key makes a repeated local purchase (a double click) grant once. */
export function localGrantKey(kind: string, userId: string, idempotencyKey: string | undefined): string {
  return `local:${kind}:${userId}:${idempotencyKey ?? randomUUID()}`;
}
