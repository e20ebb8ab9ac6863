import { sql } from 'kysely';
import type { CreditPurchaseRow } from '../schema.js';
import type { Tx } from './credit-ledger.js';

/**
 * What a generation holds: what it reserved, less what came back or a reversal clawed, less one
 * credit per output it settled (a stored shot was paid for, whatever fails after it). Of the
 * subscription credits, only those reserved in the current period may come back. `clawed` says a
 * reversal took some of its credits: a shot it stores on nothing held is paid for at settlement.
 */
export interface Hold {
  subscriptionThisPeriod: number;
  addOn: number;
  total: number;
  clawed: boolean;
}

/** What a generation may still get back. */
export async function refundable(tx: Tx, userId: string, generationId: string): Promise<Hold> {
  return toHold(await holdsOf(tx, userId).where('generation_id', '=', generationId).executeTakeFirstOrThrow());
}

/** Every generation of the user still holding credits, the newest reservation first (queued work before running work). */
export async function openHolds(tx: Tx, userId: string): Promise<(Hold & { generationId: string })[]> {
  const rows = await holdsOf(tx, userId)
    .select('generation_id')
    .where('generation_id', 'is not', null)
    .groupBy('generation_id')
    // Reserved less given back or clawed (their deltas have opposite signs), less the shots settled.
    .having(
      sql`coalesce(-sum(subscription_delta + addon_delta) filter (where kind in ('reserve', 'refund', 'claw')), 0) - count(*) filter (where kind = 'settle')`,
      '>',
      0,
    )
    .orderBy(sql`max(id) filter (where kind = 'reserve')`, 'desc')
    .execute();
  return rows.map((row) => ({ generationId: row.generation_id!, ...toHold(row) }));
}

/** How much of a hold is the bucket's: add-on credits come back first, so they are held before the period's subscription credits. */
export function heldIn(bucket: CreditPurchaseRow['bucket'], hold: Hold): number {
  const addOn = Math.min(hold.addOn, hold.total);
  return bucket === 'addon' ? addOn : Math.min(hold.subscriptionThisPeriod, hold.total - addOn);
}

function holdsOf(tx: Tx, userId: string) {
  const periodStart = currentPeriodStart(tx, userId);
  return tx
    .selectFrom('credit_ledger')
    .select([
      sql<string>`coalesce(-sum(subscription_delta) filter (where kind = 'reserve'), 0) - coalesce(sum(subscription_delta) filter (where kind in ('refund', 'claw')), 0)`.as(
        'subscription',
      ),
      sql<string>`coalesce(-sum(subscription_delta) filter (where kind = 'reserve' and id > (${periodStart})), 0) - coalesce(sum(subscription_delta) filter (where kind in ('refund', 'claw') and id > (${periodStart})), 0)`.as(
        'subscription_this_period',
      ),
      sql<string>`coalesce(-sum(addon_delta) filter (where kind = 'reserve'), 0) - coalesce(sum(addon_delta) filter (where kind in ('refund', 'claw')), 0)`.as(
        'addon',
      ),
      sql<string>`count(*) filter (where kind = 'settle')`.as('settled'),
      sql<string>`count(*) filter (where kind = 'claw')`.as('claws'),
    ])
    .where('user_id', '=', userId);
}

function toHold(row: {
  subscription: string;
  subscription_this_period: string;
  addon: string;
  settled: string;
  claws: string;
}): Hold {
  const addOn = Number(row.addon);
  return {
    subscriptionThisPeriod: Math.max(0, Number(row.subscription_this_period)),
    addOn,
    total: Math.max(0, Number(row.subscription) + addOn - Number(row.settled)),
    clawed: Number(row.claws) > 0,
  };
}

/** The ledger row that began the user's current subscription period (its newest reset or expiry): a subquery. */
function currentPeriodRow(tx: Tx, userId: string) {
  return tx
    .selectFrom('credit_ledger')
    .where('user_id', '=', userId)
    .where('kind', 'in', ['reset_subscription', 'expire_subscription'])
    .orderBy('id', 'desc')
    .limit(1);
}

function currentPeriodStart(tx: Tx, userId: string) {
  return sql`coalesce((${currentPeriodRow(tx, userId).select('id')}), 0)`;
}

/**
 * Whether the purchase's credits can still be the user's: an add-on pack's always (add-on credits
 * are one pool), a plan period's only while that period lasts (a later one was paid by another
 * payment). resetSubscription records a plan purchase with its reset row, so the user has a period row.
 */
export async function isLive(tx: Tx, purchase: CreditPurchaseRow): Promise<boolean> {
  if (purchase.bucket === 'addon') return true;
  const row = await currentPeriodRow(tx, purchase.user_id).select('idempotency_key').executeTakeFirstOrThrow();
  return row.idempotency_key === purchase.grant_key;
}
