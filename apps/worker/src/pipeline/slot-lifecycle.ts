import { UnrecoverableError } from 'bullmq';
import { GENERATION_FAILED_MESSAGE, type Progress } from '@prodshot/contracts';
import {
  settlement,
  type FailedSlots,
  type GenerationRef,
  type GenerationRefundReason,
  type Refunded,
  type SlotRef,
} from '@prodshot/db';
import { isImagingError, type GenerateResult } from '@prodshot/imaging';
import { generationOutputKey, signImage, type RenditionName, type StoredContentType } from '@prodshot/storage';
import type { WorkerDeps } from '../deps.js';
import { storeDownloadCopy, storeRenditions } from './renditions.js';

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
 * Renders one output slot: running → stored with its renditions and download copy → complete and credit settled (one transaction) →
 * pushed. A slot already settled (this job ran before a crash) is not rendered again, and one
 * settled while this render ran (the sweeper failed and refunded it) is not announced complete:
 * the seller sees what Postgres holds.
 */
export async function renderSlot(
  deps: WorkerDeps,
  slot: SlotRef,
  produce: (progress: (pct: Progress) => Promise<void>) => Promise<SlotOutput>,
): Promise<void> {
  if (!(await deps.repos.generations.markStyleRunning(slot.generationId, slot.index))) return;
  deps.publisher.emit(slot.userId, 'generation:style', {
    generationId: slot.generationId,
    index: slot.index,
    status: 'running',
  });
  // Progress is a live signal only: the slot's state is what Postgres keeps, so a reload shows
  // running until complete, and renders spend no round trips on it.
  const progress = async (pct: Progress) => {
    deps.publisher.emit(slot.userId, 'generation:style', {
      generationId: slot.generationId,
      index: slot.index,
      status: 'progress',
      progress: pct,
    });
  };
  const output = await produce(progress);
  const key = generationOutputKey(slot.userId, slot.generationId, slot.index, output.mimeType);
  const [, , download] = await Promise.all([
    deps.store.put(key, output.image, output.mimeType),
    storeRenditions(deps.store, key, output.image, output.renditions),
    storeDownloadCopy(deps.store, key, output.image, output.mimeType),
  ]);
  const files = { resultBytes: output.image.length, download };
  if (!(await settlement.settleSlot(deps, slot, { resultKey: key, seed: output.seed ?? null, files }))) return;
  const urls = await signImage(deps.store, key, true);
  deps.publisher.emit(slot.userId, 'generation:style', {
    generationId: slot.generationId,
    index: slot.index,
    status: 'complete',
    ...urls,
  });
}

/** Fails one slot for good and gives its credit back, in one transaction, once. */
export async function failSlot(deps: WorkerDeps, slot: SlotRef, message: string): Promise<void> {
  announceFailed(deps, slot, await settlement.failSlot(deps, slot, message), message);
}

/** Fails every open slot of a generation (its shared step failed) and refunds them, in one transaction. */
export async function failOpenSlots(
  deps: WorkerDeps,
  userId: string,
  generationId: string,
  message: string,
): Promise<void> {
  const generation = { userId, generationId };
  announceFailed(deps, generation, await settlement.failOpenSlots(deps, generation, message), message);
}

/** Gives back everything the generation still holds, once per reason. */
export async function refundAllHeld(
  deps: WorkerDeps,
  userId: string,
  generationId: string,
  reason: GenerationRefundReason,
): Promise<void> {
  announceRefund(deps, userId, await settlement.refundAllHeld(deps, { userId, generationId }, reason));
}

/** Gives back up to `count` credits the generation paid for and will not use, once per reason. */
export async function refundUnused(
  deps: WorkerDeps,
  userId: string,
  generationId: string,
  count: number,
  reason: GenerationRefundReason,
): Promise<void> {
  announceRefund(deps, userId, await settlement.refundUnused(deps, { userId, generationId }, count, reason));
}

function announceFailed(
  deps: WorkerDeps,
  { userId, generationId }: GenerationRef,
  outcome: FailedSlots,
  message: string,
): void {
  announceRefund(deps, userId, outcome.refunded);
  for (const index of outcome.failed)
    deps.publisher.emit(userId, 'generation:style', { generationId, index, status: 'failed', error: message });
}

function announceRefund(deps: WorkerDeps, userId: string, refunded: Refunded | null): void {
  if (!refunded) return;
  deps.metrics?.creditsRefunded(refunded.amount);
  deps.publisher.emit(userId, 'credits:update', refunded.balance);
}

/** Thrown by a late attempt (a retry, a stalled job's rerun) of a generation already settled and refunded: it does no work. */
export class GenerationSettledError extends UnrecoverableError {
  constructor(generationId: string) {
    super(`Generation ${generationId} is already settled`);
  }
}

export async function assertGenerationOpen(deps: WorkerDeps, generationId: string): Promise<void> {
  if (!(await deps.repos.generations.isOpen(generationId))) throw new GenerationSettledError(generationId);
}

/** Settles the generation when no slot is open and tells the owner. */
export async function finishIfDone(
  deps: WorkerDeps,
  userId: string,
  generationId: string,
  failure?: string,
): Promise<void> {
  const status = await deps.repos.generations.settleIfDone(generationId, failure);
  if (!status) return;
  const generation = await deps.repos.generations.find(generationId);
  deps.publisher.emit(userId, 'generation:done', { generationId, status, error: generation?.error ?? null });
}

/** Same seed for the same slot on every retry, so a retried render is the same picture. */
export function slotSeed(generationId: string, index: number): number {
  let hash = 2166136261;
  for (const char of `${generationId}:${index}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return (hash >>> 0) % 2_147_483_647;
}
