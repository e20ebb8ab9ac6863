import { sql, type Transaction } from 'kysely';
import type { Db } from '../database.js';
import type { Database, LedgerKind } from '../schema.js';

export interface CreditBalance {
  subscriptionCredits: number;
  addOnCredits: number;
}

export class InsufficientCreditsError extends Error {
  override readonly name = 'InsufficientCreditsError';
  readonly code = 'insufficient_credits';
  constructor(
    readonly needed: number,
    readonly available: number,
  ) {
    super(`Not enough credits: this needs ${needed} and you have ${available}.`);
  }
}

export interface LedgerResult {
  /** false when the idempotency key had already been used, or there was nothing to move: nothing moved this time. */
  applied: boolean;
  /** Credits this call moved (0 when it applied nothing). */
  moved: number;
  balance: CreditBalance;
}

export interface ReserveInput {
  userId: string;
  amount: number;
  idempotencyKey: string;
  generationId: string;
  reason?: string;
}

export interface RefundInput {
  userId: string;
  amount: number;
  idempotencyKey: string;
  generationId: string;
  reason?: string;
}

export interface GrantInput {
  userId: string;
  amount: number;
  idempotencyKey: string;
  reason?: string;
}

type Tx = Transaction<Database>;

/**
 * The one place credits move. Every movement is a ledger row with a unique idempotency key,
 * written in the same transaction as the balance change, so a retried job or a replayed webhook
 * never charges or grants twice, and balances never go negative (a check constraint backs this).
 */
export class CreditsRepository {
  /** Given a transaction, every movement joins it, so a caller can commit a grant with its own rows (a webhook's event id). */
  constructor(private readonly db: Db) {}

  async balance(userId: string): Promise<CreditBalance> {
    const row = await this.db
      .selectFrom('credit_balances')
      .select(['subscription_credits', 'addon_credits'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return toBalance(row);
  }

  /** Takes subscription credits first, then add-on credits; refuses when the total is short. */
  async reserve(input: ReserveInput): Promise<LedgerResult> {
    assertPositive(input.amount);
    return this.inTransaction(async (tx) => {
      const current = await lockBalance(tx, input.userId);
      const available = current.subscriptionCredits + current.addOnCredits;
      if (available < input.amount) {
        // A replay of a reservation that went through is answered as such, not as a shortfall.
        if (await keyUsed(tx, input.idempotencyKey)) return { applied: false, moved: 0, balance: current };
        throw new InsufficientCreditsError(input.amount, available);
      }
      const fromSubscription = Math.min(current.subscriptionCredits, input.amount);
      const fromAddOn = input.amount - fromSubscription;
      return move(tx, current, input.userId, 'reserve', -fromSubscription, -fromAddOn, input);
    });
  }

  /**
   * Gives back up to `amount` of what this generation reserved and has not had back yet, add-on
   * credits first (they were taken last). A refund never exceeds the reservation.
   */
  async refund(input: RefundInput): Promise<LedgerResult> {
    assertPositive(input.amount);
    return this.inTransaction(async (tx) => {
      const current = await lockBalance(tx, input.userId);
      const open = await refundable(tx, input.generationId);
      const cap = Math.min(input.amount, open.total);
      const toAddOn = Math.min(cap, open.addOn);
      const toSubscription = Math.min(cap - toAddOn, open.subscription);
      // Nothing left to give back writes no row: the ledger and the refund metric count only credits that moved.
      if (toAddOn + toSubscription === 0) return { applied: false, moved: 0, balance: current };
      return move(tx, current, input.userId, 'refund', toSubscription, toAddOn, input);
    });
  }

  /** Marks reserved credits as spent for an output that was stored; moves nothing. */
  async settle(input: { userId: string; generationId: string; idempotencyKey: string }): Promise<LedgerResult> {
    return this.inTransaction(async (tx) => {
      const current = await lockBalance(tx, input.userId);
      return move(tx, current, input.userId, 'settle', 0, 0, input);
    });
  }

  async grantAddOn(input: GrantInput): Promise<LedgerResult> {
    assertPositive(input.amount);
    return this.inTransaction(async (tx) => {
      const current = await lockBalance(tx, input.userId);
      return move(tx, current, input.userId, 'grant_addon', 0, input.amount, input);
    });
  }

  /** A new paid period: subscription credits become the plan allowance (no rollover). */
  async resetSubscription(input: GrantInput): Promise<LedgerResult> {
    if (!Number.isInteger(input.amount) || input.amount < 0) throw new RangeError('allowance must be a whole number ≥ 0');
    return this.inTransaction(async (tx) => {
      const current = await lockBalance(tx, input.userId);
      return move(tx, current, input.userId, 'reset_subscription', input.amount - current.subscriptionCredits, 0, input);
    });
  }

  private inTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.isTransaction ? work(this.db as Tx) : this.db.transaction().execute(work);
  }
}

function toBalance(row: { subscription_credits: number; addon_credits: number } | undefined): CreditBalance {
  return { subscriptionCredits: row?.subscription_credits ?? 0, addOnCredits: row?.addon_credits ?? 0 };
}

function assertPositive(amount: number): void {
  if (!Number.isInteger(amount) || amount <= 0) throw new RangeError('amount must be a whole number > 0');
}

/** Locks the user's balance row, creating it first if needed: concurrent movements for one user queue up here. */
async function lockBalance(tx: Tx, userId: string): Promise<CreditBalance> {
  const select = () => tx.selectFrom('credit_balances').select(['subscription_credits', 'addon_credits']).where('user_id', '=', userId).forUpdate().executeTakeFirst();
  let row = await select();
  if (!row) {
    await tx.insertInto('credit_balances').values({ user_id: userId }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
    row = await select();
  }
  return toBalance(row);
}

/**
 * Writes the ledger row and moves the balance by it, in one statement (a movement sits on every
 * generation's accept path, where each round trip to Postgres is felt). The row's unique
 * idempotency key decides: a key used before inserts nothing, and then nothing moves. The caller
 * holds the balance's lock, so the balance this statement reads is the one `current` describes.
 */
async function move(
  tx: Tx,
  current: CreditBalance,
  userId: string,
  kind: LedgerKind,
  subscriptionDelta: number,
  addOnDelta: number,
  input: { idempotencyKey: string; generationId?: string; reason?: string },
): Promise<LedgerResult> {
  const row = await tx
    .with('entry', (db) =>
      db
        .insertInto('credit_ledger')
        .values({
          user_id: userId,
          kind,
          subscription_delta: subscriptionDelta,
          addon_delta: addOnDelta,
          idempotency_key: input.idempotencyKey,
          generation_id: input.generationId ?? null,
          reason: input.reason ?? null,
        })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .returning('id'),
    )
    .updateTable('credit_balances')
    .set({
      subscription_credits: sql`subscription_credits + ${subscriptionDelta}`,
      addon_credits: sql`addon_credits + ${addOnDelta}`,
      updated_at: sql`now()`,
    })
    .where('user_id', '=', userId)
    .where(({ exists, selectFrom }) => exists(selectFrom('entry').select('id')))
    .returning(['subscription_credits', 'addon_credits'])
    .executeTakeFirst();
  return row
    ? { applied: true, moved: Math.abs(subscriptionDelta) + Math.abs(addOnDelta), balance: toBalance(row) }
    : { applied: false, moved: 0, balance: current };
}

async function keyUsed(tx: Tx, idempotencyKey: string): Promise<boolean> {
  const row = await tx.selectFrom('credit_ledger').select('id').where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
  return row !== undefined;
}

/**
 * What a generation may still get back: what it reserved, less what came back already, less one
 * credit per output it settled (a stored shot was paid for, whatever fails after it).
 */
async function refundable(tx: Tx, generationId: string): Promise<{ subscription: number; addOn: number; total: number }> {
  const row = await tx
    .selectFrom('credit_ledger')
    .select([
      sql<string>`coalesce(-sum(subscription_delta) filter (where kind = 'reserve'), 0) - coalesce(sum(subscription_delta) filter (where kind = 'refund'), 0)`.as('subscription'),
      sql<string>`coalesce(-sum(addon_delta) filter (where kind = 'reserve'), 0) - coalesce(sum(addon_delta) filter (where kind = 'refund'), 0)`.as('addon'),
      sql<string>`count(*) filter (where kind = 'settle')`.as('settled'),
    ])
    .where('generation_id', '=', generationId)
    .executeTakeFirstOrThrow();
  const subscription = Number(row.subscription);
  const addOn = Number(row.addon);
  return { subscription, addOn, total: Math.max(0, subscription + addOn - Number(row.settled)) };
}
