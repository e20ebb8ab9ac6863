import type { CreditBalance } from '@prodshot/contracts';
import type { Db } from '../database.js';
import type { LedgerResult } from '../repositories/credits-repository.js';
import type { OutputFiles } from '../repositories/generations-repository.js';
import { inTransaction, type Repositories } from '../repositories/repositories.js';
import { ledgerKeys, type GenerationRefundReason } from './ledger-keys.js';

/** What settlement works with: the pool its transactions open on, and the pool's repositories for lone writes. */
export interface SettlementDeps {
  db: Db;
  repos: Pick<Repositories, 'credits' | 'generations'>;
}

export interface GenerationRef {
  userId: string;
  generationId: string;
}

export interface SlotRef extends GenerationRef {
  index: number;
}

/** Credits a call gave back and the balance they left: what its caller announces (the worker to its publisher and metrics, the API to onCreditsChanged). */
export interface Refunded {
  amount: number;
  balance: CreditBalance;
}

/** The slots a call failed (none when they were settled already) and the credits that came back for them. */
export interface FailedSlots {
  failed: number[];
  refunded: Refunded | null;
}

/**
 * A slot's output was stored: the slot completes and its credit is spent, in one transaction.
 * false when the slot was settled before (a rerun of its job, or the sweeper failed it meanwhile):
 * then nothing changed.
 */
export async function settleSlot(
  { db }: SettlementDeps,
  slot: SlotRef,
  output: { resultKey: string; seed: number | null; files?: OutputFiles },
): Promise<boolean> {
  return inTransaction(db, async ({ generations, credits }) => {
    if (!(await generations.completeStyle(slot.generationId, slot.index, output.resultKey, output.seed, output.files)))
      return false;
    const attempt = await generations.slotAttempt(slot.generationId, slot.index);
    await credits.settle({
      userId: slot.userId,
      generationId: slot.generationId,
      idempotencyKey: ledgerKeys.settle(slot.generationId, slot.index, attempt),
    });
    return true;
  });
}

/** Fails one slot for good and gives its credit back, in one transaction, once. */
export async function failSlot({ db }: SettlementDeps, slot: SlotRef, message: string): Promise<FailedSlots> {
  return inTransaction(db, async ({ generations, credits }) => {
    if (!(await generations.failStyle(slot.generationId, slot.index, message))) return { failed: [], refunded: null };
    const attempt = await generations.slotAttempt(slot.generationId, slot.index);
    const result = await credits.refund({
      ...generationOf(slot),
      amount: 1,
      idempotencyKey: ledgerKeys.refundSlot(slot.generationId, slot.index, attempt),
    });
    return { failed: [slot.index], refunded: refunded(result) };
  });
}

/** Fails every open slot of a generation (a step they all wait on failed) and gives each one's credit back, in one transaction. */
export async function failOpenSlots(
  { db }: SettlementDeps,
  generation: GenerationRef,
  message: string,
): Promise<FailedSlots> {
  return inTransaction(db, async ({ generations, credits }) => {
    const failed = await generations.failOpenStyles(generation.generationId, message);
    let balance: CreditBalance | undefined;
    let amount = 0;
    for (const index of failed) {
      const attempt = await generations.slotAttempt(generation.generationId, index);
      const result = await credits.refund({
        ...generation,
        amount: 1,
        idempotencyKey: ledgerKeys.refundSlot(generation.generationId, index, attempt),
      });
      balance = result.balance;
      amount += result.moved;
    }
    return { failed, refunded: balance && amount > 0 ? { amount, balance } : null };
  });
}

/**
 * Gives back everything the generation still holds (what it reserved, less what came back and
 * what its stored outputs spent), once per reason.
 */
export async function refundAllHeld(
  { repos }: SettlementDeps,
  generation: GenerationRef,
  reason: GenerationRefundReason,
): Promise<Refunded | null> {
  return refunded(
    await repos.credits.refundHeld({
      ...generation,
      idempotencyKey: ledgerKeys.refundGeneration(generation.generationId, reason),
    }),
  );
}

/** Gives back up to `count` credits the generation paid for and will not use (never more than it holds), once per reason. */
export async function refundUnused(
  { repos }: SettlementDeps,
  generation: GenerationRef,
  count: number,
  reason: GenerationRefundReason,
): Promise<Refunded | null> {
  if (count <= 0) return null;
  return refunded(
    await repos.credits.refund({
      ...generation,
      amount: count,
      idempotencyKey: ledgerKeys.refundGeneration(generation.generationId, reason),
    }),
  );
}

/**
 * A generation whose job could never be queued: its open slots fail and everything it holds comes
 * back (one transaction), then it settles.
 */
export async function abandonGeneration(
  deps: SettlementDeps,
  generation: GenerationRef,
  message: string,
): Promise<Refunded | null> {
  const result = await inTransaction(deps.db, async ({ generations, credits }) => {
    await generations.failOpenStyles(generation.generationId, message);
    return credits.refundHeld({
      ...generation,
      idempotencyKey: ledgerKeys.refundGeneration(generation.generationId, 'enqueue'),
    });
  });
  await deps.repos.generations.settleIfDone(generation.generationId, message);
  return refunded(result);
}

/** One slot whose job could never be queued: it fails and its credit comes back, then its generation settles if nothing else is open. */
export async function abandonSlot(deps: SettlementDeps, slot: SlotRef, message: string): Promise<Refunded | null> {
  const outcome = await failSlot(deps, slot, message);
  await deps.repos.generations.settleIfDone(slot.generationId, message);
  return outcome.refunded;
}

function generationOf(slot: SlotRef): GenerationRef {
  return { userId: slot.userId, generationId: slot.generationId };
}

function refunded(result: LedgerResult): Refunded | null {
  return result.applied ? { amount: result.moved, balance: result.balance } : null;
}
