import { sql } from 'kysely';
import type { CreditPurchaseRow } from '../schema.js';
import type { Tx } from './credit-ledger.js';

/**
 * What a generation may still get back: what it reserved, less what came back already, less one
 * credit per output it settled (a stored shot was paid for, whatever fails after it). Of the
 * subscription credits, only those reserved in the current period may come back.
 */
export async function refundable(tx: Tx, userId: string, generationId: string): Promise<{ subscriptionThisPeriod: number; addOn: number; total: number }> {
  const periodStart = currentPeriodStart(tx, userId);
  const row = await tx
    .selectFrom('credit_ledger')
    .select([
      sql<string>`coalesce(-sum(subscription_delta) filter (where kind = 'reserve'), 0) - coalesce(sum(subscription_delta) filter (where kind = 'refund'), 0)`.as('subscription'),
      sql<string>`coalesce(-sum(subscription_delta) filter (where kind = 'reserve' and id > (${periodStart})), 0) - coalesce(sum(subscription_delta) filter (where kind = 'refund' and id > (${periodStart})), 0)`.as(
        'subscription_this_period',
      ),
      sql<string>`coalesce(-sum(addon_delta) filter (where kind = 'reserve'), 0) - coalesce(sum(addon_delta) filter (where kind = 'refund'), 0)`.as('addon'),
      sql<string>`count(*) filter (where kind = 'settle')`.as('settled'),
    ])
    .where('generation_id', '=', generationId)
    .executeTakeFirstOrThrow();
  const addOn = Number(row.addon);
  return {
    subscriptionThisPeriod: Math.max(0, Number(row.subscription_this_period)),
    addOn,
    total: Math.max(0, Number(row.subscription) + addOn - Number(row.settled)),
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
 * Whether the purchase's grant began the period the user is in now. Asked only of a plan period's
 * purchase, which resetSubscription records with its reset row, so the user has a period row.
 */
export async function isCurrentPeriod(tx: Tx, purchase: CreditPurchaseRow): Promise<boolean> {
  const row = await currentPeriodRow(tx, purchase.user_id).select('idempotency_key').executeTakeFirstOrThrow();
  return row.idempotency_key === purchase.grant_key;
}
