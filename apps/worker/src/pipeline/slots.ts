import { UnrecoverableError } from 'bullmq';
import { GENERATION_FAILED_MESSAGE } from '@prodshot/contracts';
import { CreditsRepository, GenerationsRepository, slotLedgerKey, type CreditBalance } from '@prodshot/db';
import { isImagingError, type GenerateResult } from '@prodshot/imaging';
import { generationOutputKey, signImage, type RenditionName, type StoredContentType } from '@prodshot/storage';
import type { WorkerDeps } from '../deps.js';
import { storeRenditions } from './renditions.js';


export interface SlotRef {
  userId: string;
  generationId: string;
  index: number;
}

export interface SlotOutput {
  image: Buffer;
  mimeType: StoredContentType;
  /** Its renditions, when the engine made them with the shot; otherwise they are made from `image`. */
  renditions?: Partial<Record<RenditionName, Buffer>> | undefined;
  /** The seed the engine rendered the scene with, recorded on the output. */
  seed?: number | undefined;
}

/** A generated shot as a slot's output: the engine's renditions travel with it. */
export function slotOutput(shot: GenerateResult): SlotOutput {
  return { image: shot.image, mimeType: shot.mimeType, renditions: shot.renditions, seed: shot.seed };
}

/** What a seller may read: our typed imaging messages as they are, anything else generic. */
export function userMessage(error: unknown): string {
  return isImagingError(error) ? error.message : GENERATION_FAILED_MESSAGE;
}

/**
 * Renders one output slot: running → stored with its renditions → complete and credit settled (one transaction) →
 * pushed. A slot already settled (this job ran before a crash) is not rendered again, and one
 * settled while this render ran (the sweeper failed and refunded it) is not announced complete:
 * the seller sees what Postgres holds.
 */
export async function renderSlot(deps: WorkerDeps, slot: SlotRef, produce: (progress: (pct: number) => Promise<void>) => Promise<SlotOutput>): Promise<void> {
  if (!(await deps.generations.markStyleRunning(slot.generationId, slot.index))) return;
  deps.publisher.emit(slot.userId, 'generation:style', { generationId: slot.generationId, index: slot.index, status: 'running' });
  // Progress is a live signal only: the slot's state is what Postgres keeps, so a reload shows
  // running until complete, and renders spend no round trips on it.
  const progress = async (pct: number) => {
    deps.publisher.emit(slot.userId, 'generation:style', { generationId: slot.generationId, index: slot.index, status: 'progress', progress: pct });
  };
  const output = await produce(progress);
  const key = generationOutputKey(slot.userId, slot.generationId, slot.index, output.mimeType);
  await Promise.all([deps.store.put(key, output.image, output.mimeType), storeRenditions(deps.store, key, output.image, output.renditions)]);
  const won = await deps.db.transaction().execute(async (tx) => {
    const generations = new GenerationsRepository(tx);
    if (!(await generations.completeStyle(slot.generationId, slot.index, key, output.seed ?? null))) return false;
    const attempt = await generations.slotAttempt(slot.generationId, slot.index);
    await new CreditsRepository(tx).settle({ userId: slot.userId, generationId: slot.generationId, idempotencyKey: slotLedgerKey('settle', slot.generationId, slot.index, attempt) });
    return true;
  });
  if (!won) return;
  const urls = await signImage(deps.store, key, true);
  deps.publisher.emit(slot.userId, 'generation:style', { generationId: slot.generationId, index: slot.index, status: 'complete', ...urls });
}

/** Fails one slot for good and gives its credit back, in one transaction, once. */
export async function failSlot(deps: WorkerDeps, slot: SlotRef, message: string): Promise<void> {
  const outcome = await deps.db.transaction().execute(async (tx) => {
    const generations = new GenerationsRepository(tx);
    if (!(await generations.failStyle(slot.generationId, slot.index, message))) return null;
    const attempt = await generations.slotAttempt(slot.generationId, slot.index);
    return new CreditsRepository(tx).refund({ userId: slot.userId, generationId: slot.generationId, amount: 1, idempotencyKey: slotLedgerKey('refund', slot.generationId, slot.index, attempt) });
  });
  if (!outcome) return;
  if (outcome.applied) announceRefund(deps, slot.userId, outcome.balance, outcome.moved);
  deps.publisher.emit(slot.userId, 'generation:style', { generationId: slot.generationId, index: slot.index, status: 'failed', error: message });
}

/** Fails every open slot of a generation (its shared step failed) and refunds them, in one transaction. */
export async function failOpenSlots(deps: WorkerDeps, userId: string, generationId: string, message: string): Promise<void> {
  const { failed, refunded } = await deps.db.transaction().execute(async (tx) => {
    const generations = new GenerationsRepository(tx);
    const indexes = await generations.failOpenStyles(generationId, message);
    const credits = new CreditsRepository(tx);
    let last = null;
    let moved = 0;
    for (const index of indexes) {
      const attempt = await generations.slotAttempt(generationId, index);
      last = await credits.refund({ userId, generationId, amount: 1, idempotencyKey: slotLedgerKey('refund', generationId, index, attempt) });
      moved += last.moved;
    }
    return { failed: indexes, refunded: last && moved > 0 ? { balance: last.balance, moved } : null };
  });
  if (refunded) announceRefund(deps, userId, refunded.balance, refunded.moved);
  for (const index of failed) deps.publisher.emit(userId, 'generation:style', { generationId, index, status: 'failed', error: message });
}

/** Gives back up to `amount` still reserved by the generation (never more than it reserved), once per key. */
export async function refund(deps: WorkerDeps, userId: string, generationId: string, amount: number, idempotencyKey: string): Promise<void> {
  if (amount <= 0) return;
  const { applied, balance, moved } = await deps.credits.refund({ userId, generationId, amount, idempotencyKey });
  if (applied) announceRefund(deps, userId, balance, moved);
}

function announceRefund(deps: WorkerDeps, userId: string, balance: CreditBalance, amount: number): void {
  deps.metrics?.creditsRefunded(amount);
  deps.publisher.emit(userId, 'credits:update', balance);
}

/** Thrown by a late attempt (a retry, a stalled job's rerun) of a generation already settled and refunded: it does no work. */
export class GenerationSettledError extends UnrecoverableError {
  constructor(generationId: string) {
    super(`Generation ${generationId} is already settled`);
  }
}

export async function assertGenerationOpen(deps: WorkerDeps, generationId: string): Promise<void> {
  if (!(await deps.generations.isOpen(generationId))) throw new GenerationSettledError(generationId);
}

/** Settles the generation when no slot is open and tells the owner. */
export async function finishIfDone(deps: WorkerDeps, userId: string, generationId: string, failure?: string): Promise<void> {
  const status = await deps.generations.settleIfDone(generationId, failure);
  if (!status) return;
  const generation = await deps.generations.find(generationId);
  deps.publisher.emit(userId, 'generation:done', { generationId, status, error: generation?.error ?? null });
}

/** Same seed for the same slot on every retry, so a retried render is the same picture. */
export function slotSeed(generationId: string, index: number): number {
  let hash = 2166136261;
  for (const char of `${generationId}:${index}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return (hash >>> 0) % 2_147_483_647;
}
