// Over 250 lines: the ledger: every credit move (reserve, refund, grant, expire, give back, take back) under
// the same balance lock, so one balance's rules read in one place.
import type { CreditBalance } from '@prodshot/contracts';
import { withTransaction, type Db } from '../database.js';
import type { CreditPurchaseRow } from '../schema.js';
import {
  assertPositive,
  keyUsed,
  lockBalance,
  move,
  pools,
  repaid,
  spend,
  toBalance,
  type LedgerResult,
} from './credit-ledger.js';
import { isLive, refundable } from './credit-holds.js';
import { bucketBalance, clawHolds, linkPayments, moveBucket, recordPurchase, takenBack } from './credit-purchases.js';

export type { CreditBalance, LedgerResult };

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
  /**
   * A paid grant: recorded as a purchase (under its idempotency key) that a refund or a dispute of
   * these payments can take back.
   */
  purchase?: { paymentRefs: string[] };
}

export interface ExpireInput {
  userId: string;
  idempotencyKey: string;
  reason?: string;
}

export interface GiveBackInput {
  purchase: CreditPurchaseRow;
  /** The take-back to undo: what it took comes back. */
  revokeKey: string;
  idempotencyKey: string;
  reason?: string;
}

export interface TakeBackInput {
  purchase: CreditPurchaseRow;
  /**
   * How many of the purchase's credits should be gone in all, counting earlier take-backs: a
   * second partial refund of one payment takes only the difference.
   */
  upTo: number;
  idempotencyKey: string;
  reason?: string;
}

/**
 * The one place credits move. Every movement is a ledger row with a unique idempotency key,
 * written in the same transaction as the balance change, so a retried job or a replayed webhook
 * never charges or grants twice, and balances never go negative (a check constraint backs this):
 * what a shot owes past the balance, after a reversal clawed its credit, is debt beside it.
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
    return withTransaction(this.db, async (tx) => {
      const current = await lockBalance(tx, input.userId);
      const available = current.subscriptionCredits + current.addOnCredits;
      if (available < input.amount) {
        // A replay of a reservation that went through is answered as such, not as a shortfall.
        if (await keyUsed(tx, input.idempotencyKey)) return { applied: false, moved: 0, balance: pools(current) };
        throw new InsufficientCreditsError(input.amount, available);
      }
      return move(tx, current, input.userId, 'reserve', spend(current, input.amount), input);
    });
  }

  /**
   * Gives back up to `amount` of what this generation reserved and has not had back yet, add-on
   * credits first (they were taken last). A refund never exceeds the reservation, and subscription
   * credits reserved before the current period began stay gone: that period's credits expired with
   * it, so giving them back would lift the new period above its allowance.
   */
  async refund(input: RefundInput): Promise<LedgerResult> {
    assertPositive(input.amount);
    return this.refundUpTo(input, input.amount);
  }

  /** Gives back everything this generation still holds, by the same rules as `refund`. */
  async refundHeld(input: Omit<RefundInput, 'amount'>): Promise<LedgerResult> {
    return this.refundUpTo(input, Number.POSITIVE_INFINITY);
  }

  private refundUpTo(input: Omit<RefundInput, 'amount'>, amount: number): Promise<LedgerResult> {
    return withTransaction(this.db, async (tx) => {
      const current = await lockBalance(tx, input.userId);
      const open = await refundable(tx, input.userId, input.generationId);
      const cap = Math.min(amount, open.total);
      const toAddOn = Math.min(cap, open.addOn);
      const toSubscription = Math.min(cap - toAddOn, open.subscriptionThisPeriod);
      // Nothing left to give back writes no row: the ledger and the refund metric count only credits that moved.
      if (toAddOn + toSubscription === 0) return { applied: false, moved: 0, balance: pools(current) };
      return move(tx, current, input.userId, 'refund', { subscription: toSubscription, addOn: toAddOn }, input);
    });
  }

  /**
   * Marks a reserved credit as spent for an output that was stored; moves nothing. A shot that
   * work stores after a reversal clawed its credits (nothing held is left) is paid for now, as a
   * reservation would pay, and what the balance cannot pay becomes debt.
   */
  async settle(input: { userId: string; generationId: string; idempotencyKey: string }): Promise<LedgerResult> {
    return withTransaction(this.db, async (tx) => {
      const current = await lockBalance(tx, input.userId);
      const hold = await refundable(tx, input.userId, input.generationId);
      const unpaid = hold.clawed && hold.total === 0 ? 1 : 0;
      return move(tx, current, input.userId, 'settle', spend(current, unpaid), input);
    });
  }

  /** A pack's credits join the add-on pool, less the debt they repay first. */
  async grantAddOn(input: GrantInput): Promise<LedgerResult> {
    assertPositive(input.amount);
    return withTransaction(this.db, async (tx) => {
      const current = await lockBalance(tx, input.userId);
      await recordPurchase(tx, input, 'addon');
      const debt = repaid(current, input.amount);
      return move(
        tx,
        current,
        input.userId,
        'grant_addon',
        { subscription: 0, addOn: input.amount - debt, debt: -debt },
        input,
      );
    });
  }

  /** A new paid period: subscription credits become the plan allowance (no rollover), less the debt it repays first. */
  async resetSubscription(input: GrantInput): Promise<LedgerResult> {
    if (!Number.isInteger(input.amount) || input.amount < 0)
      throw new RangeError('allowance must be a whole number ≥ 0');
    return withTransaction(this.db, async (tx) => {
      const current = await lockBalance(tx, input.userId);
      await recordPurchase(tx, input, 'subscription');
      const debt = repaid(current, input.amount);
      return move(
        tx,
        current,
        input.userId,
        'reset_subscription',
        { subscription: input.amount - debt - current.subscriptionCredits, addOn: 0, debt: -debt },
        input,
      );
    });
  }

  /** The paid period ended with nothing after it: subscription credits go to 0, add-on credits stay. */
  async expireSubscription(input: ExpireInput): Promise<LedgerResult> {
    return withTransaction(this.db, async (tx) => {
      const current = await lockBalance(tx, input.userId);
      // Written even when nothing is left: it starts a period with no allowance, which refunds respect.
      return move(
        tx,
        current,
        input.userId,
        'expire_subscription',
        { subscription: -current.subscriptionCredits, addOn: 0 },
        input,
      );
    });
  }

  /**
   * Money paid back is credits taken back: up to `upTo` of what the purchase granted, less what was
   * taken back already. The balance pays first, then what open reservations hold of the purchase's
   * bucket (clawed, so that work failing gives nothing back); credits spent on stored shots stay
   * spent, so a balance never goes below 0. Add-on credits are one pool, so a pack takes back up to
   * its size from it; a plan period's credits are its own only while that period lasts.
   */
  async takeBack(input: TakeBackInput): Promise<LedgerResult> {
    const { purchase } = input;
    return withTransaction(this.db, async (tx) => {
      const current = await lockBalance(tx, purchase.user_id);
      const nothing = { applied: false, moved: 0, balance: pools(current) };
      // A replay must not claw again: its claw rows would be new generations' under new keys.
      if (await keyUsed(tx, input.idempotencyKey)) return nothing;
      const owed = Math.min(input.upTo, purchase.credits) - (await takenBack(tx, purchase.grant_key));
      if (owed <= 0 || !(await isLive(tx, purchase))) return nothing;
      const fromBalance = Math.min(owed, bucketBalance(purchase, current));
      const clawed = await clawHolds(tx, current, purchase, owed - fromBalance, input);
      if (fromBalance + clawed === 0) return nothing;
      return moveBucket(tx, current, purchase, 'revoke', -(fromBalance + clawed), {
        ...input,
        purchaseKey: purchase.grant_key,
      });
    });
  }

  /**
   * Undoes one take-back (a dispute won): what it took comes back, whether from the balance or from
   * held work, repaying debt first; a plan period's only while that period lasts and never above
   * what the purchase granted.
   */
  async giveBack(input: GiveBackInput): Promise<LedgerResult> {
    const { purchase } = input;
    return withTransaction(this.db, async (tx) => {
      const current = await lockBalance(tx, purchase.user_id);
      const revoked = await tx
        .selectFrom('credit_ledger')
        .select(['subscription_delta', 'addon_delta'])
        .where('idempotency_key', '=', input.revokeKey)
        .where('purchase_key', '=', purchase.grant_key)
        .executeTakeFirst();
      const took = revoked ? -(revoked.subscription_delta + revoked.addon_delta) : 0;
      const amount = !(await isLive(tx, purchase))
        ? 0
        : purchase.bucket === 'addon'
          ? took
          : Math.min(took, purchase.credits - current.subscriptionCredits);
      if (amount <= 0) return { applied: false, moved: 0, balance: pools(current) };
      const debt = repaid(current, amount);
      return moveBucket(
        tx,
        current,
        purchase,
        'restore',
        amount - debt,
        { ...input, purchaseKey: purchase.grant_key },
        -debt,
      );
    });
  }

  /** The purchase one of these payments (a charge, its PaymentIntent, an invoice) paid for, if it was recorded. */
  async purchaseByPayment(paymentRefs: string[]): Promise<CreditPurchaseRow | undefined> {
    if (paymentRefs.length === 0) return undefined;
    return this.db
      .selectFrom('purchase_payments')
      .innerJoin('credit_purchases', 'credit_purchases.grant_key', 'purchase_payments.grant_key')
      .selectAll('credit_purchases')
      .where('purchase_payments.payment_ref', 'in', paymentRefs)
      .executeTakeFirst();
  }

  /** Records which grant these payments paid for; the payment may be announced before the grant. */
  async linkPayments(grantKey: string, paymentRefs: string[]): Promise<void> {
    await linkPayments(this.db, grantKey, paymentRefs);
  }
}
