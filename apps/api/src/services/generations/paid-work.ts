// Over 250 lines: reserving credits, claiming the idempotency key and enqueueing are one story with one undo
// (the compensation on a refused enqueue); apart, each step's failure path would be read without the others.
// Every paid call goes through here and nowhere else on its way to the queue.
import {
  RETRY_STYLE_CREDITS,
  type GenerationKind,
  type JobName,
  type JobPayloads,
  type SmartStage,
} from '@prodshot/contracts';
import {
  inTransaction,
  InsufficientCreditsError,
  ledgerKeys,
  settlement,
  type CreditBalance,
  type CreditsRepository,
  type Db,
  type GenerationRow,
  type GenerationsRepository,
  type IdempotencyClaim,
  type ImageRow,
  type NewSlot,
  type Repositories,
  type RetriedSlot,
} from '@prodshot/db';
import { jobIds, type JobProducer, type QueueOrder } from '@prodshot/queue';
import { InsufficientCreditsHttpError } from '../http-error.js';
import { claimKey, oncePerKey } from '../idempotency.js';

/** What paid work is built from: the pool, the pool's repositories, the queue and who hears of moved credits. */
export interface PaidWorkDeps {
  db: Db;
  repos: Repositories;
  producer: JobProducer;
  /** Told after a reservation moved the user's credits. */
  onCreditsChanged?: ((userId: string, balance: CreditBalance) => void) | undefined;
  metrics?: { creditsReserved(amount: number): void } | undefined;
}

/** What a call opened: a whole new generation, one new slot of an existing one, or nothing new. */
export type Opened = 'generation' | { slot: number } | 'nothing';

/** What opening one generation takes: its upload, kind, request, slots and credits. */
export interface OpenInput {
  userId: string;
  image: ImageRow;
  kind: GenerationKind;
  stage?: SmartStage;
  request: Record<string, unknown>;
  slots: NewSlot[];
  credits: number;
}

/**
 * Opens paid work: a generation, a batch, a slot or a retried slot, each committed with its
 * credits' reservation and the caller's Idempotency-Key, then its job enqueued. Credits are
 * reserved before anything is enqueued, and a refused reservation leaves nothing behind.
 */
export class PaidWork {
  constructor(private readonly deps: PaidWorkDeps) {}

  /** Starts paid work once per Idempotency-Key (idempotency.ts): a repeat answers what the first started and charges nothing more. */
  once(
    claim: IdempotencyClaim | undefined,
    kind: 'generation' | 'batch',
    start: () => Promise<string>,
  ): Promise<string> {
    return oncePerKey(this.deps.repos.idempotencyKeys, claim, kind, start);
  }

  /** Opens (and charges) one generation start and enqueues its job under the generation's id. */
  async start(start: GenerationStart, claim?: IdempotencyClaim): Promise<string> {
    const generation = await this.open({ ...start.open, claim });
    const { name, payload, job } = queuedJob(start, generation.id);
    await this.enqueue(name, payload as never, job, 'generation', claim);
    return generation.id;
  }

  /** Records the key for a request that opens nothing new (so the same key with another request is still refused). */
  claimKey(claim: IdempotencyClaim | undefined, generationId: string): Promise<void> {
    return claimKey(this.deps.repos.idempotencyKeys, claim, { generationId });
  }

  /**
   * Opens a generation with its slots and reserves `credits` for it, committed together: a refused
   * reservation (402) leaves no generation behind.
   */
  async open(input: OpenInput & { claim?: IdempotencyClaim | undefined }): Promise<GenerationRow> {
    return this.charged(input.userId, input.claim, async (repos) => {
      const generation = await createGeneration(repos.generations, input);
      return {
        value: generation,
        target: { generationId: generation.id },
        reservations: [reservation(generation.id, input.credits)],
      };
    });
  }

  /**
   * Opens a batch and one generation per photo, and reserves every one's credits, all in one
   * transaction: the whole batch is paid for, or nothing is opened (402 naming the batch's total).
   */
  async openBatch(input: {
    userId: string;
    choice: Record<string, unknown>;
    generations: OpenInput[];
    claim?: IdempotencyClaim | undefined;
  }): Promise<{ batchId: string; generations: GenerationRow[] }> {
    const credits = input.generations.reduce((sum, generation) => sum + generation.credits, 0);
    return this.charged(input.userId, input.claim, async (repos) => {
      const batch = await repos.batches.create({ userId: input.userId, choice: input.choice, credits });
      const generations: GenerationRow[] = [];
      for (const [position, open] of input.generations.entries())
        generations.push(await createGeneration(repos.generations, open, { id: batch.id, position }));
      return {
        value: { batchId: batch.id, generations },
        target: { batchId: batch.id },
        reservations: generations.map((generation, index) =>
          reservation(generation.id, input.generations[index]!.credits),
        ),
      };
    });
  }

  /** Adds one slot to a generation (reopening it if it had settled) and reserves its credit, together. */
  async openSlot(userId: string, generationId: string, slot: NewSlot, claim?: IdempotencyClaim): Promise<void> {
    await this.charged(userId, claim, async (repos) => {
      await repos.generations.reopenWithSlot(generationId, slot);
      return {
        value: undefined,
        target: { generationId },
        reservations: [{ generationId, amount: 1, idempotencyKey: ledgerKeys.reserveSlot(generationId, slot.index) }],
      };
    });
  }

  /**
   * Queues a failed slot again as its next attempt and reserves its credit, together: the credit is
   * settled if the attempt stores an output and refunded if it fails again. Null when the slot was
   * not failed (a concurrent retry won), with nothing reserved.
   */
  async retrySlot(
    userId: string,
    generationId: string,
    index: number,
    claim?: IdempotencyClaim,
  ): Promise<RetriedSlot | null> {
    try {
      return await this.charged(userId, claim, async (repos) => {
        const slot = await repos.generations.retryFailedStyle(generationId, index);
        if (!slot) throw new SlotNotFailedError();
        const reserve = {
          generationId,
          amount: RETRY_STYLE_CREDITS,
          idempotencyKey: ledgerKeys.reserveSlot(generationId, index, slot.attempt),
        };
        return { value: slot, target: { generationId }, reservations: [reserve] };
      });
    } catch (error) {
      if (error instanceof SlotNotFailedError) return null;
      throw error;
    }
  }

  /**
   * Runs `work` and makes its reservations in one transaction, claiming the caller's
   * Idempotency-Key for its target in it too: a key another request holds rolls it all back
   * (IdempotentReplayError), and a refused reservation leaves no key and no work behind.
   */
  private async charged<T>(
    userId: string,
    claim: IdempotencyClaim | undefined,
    work: (
      repos: Repositories,
    ) => Promise<{ value: T; target: { generationId: string } | { batchId: string }; reservations: Reservation[] }>,
  ): Promise<T> {
    const reserved = await inTransaction(this.deps.db, async (repos) => {
      const { value, target, reservations } = await work(repos);
      await claimKey(repos.idempotencyKeys, claim, target);
      return { value, ...(await reserveAll(repos.credits, userId, reservations)) };
    }).catch((error: unknown) => {
      if (error instanceof InsufficientCreditsError)
        throw new InsufficientCreditsHttpError(error.needed, error.available);
      throw error;
    });
    if (reserved.balance) {
      this.deps.metrics?.creditsReserved(reserved.moved);
      this.deps.onCreditsChanged?.(userId, reserved.balance);
    }
    return reserved.value;
  }

  /**
   * Enqueues a generation's job. If Redis refuses, the work this call opened can never run: its
   * slots fail and their credits come back, and the caller's error still says the service is
   * unavailable. Slots other calls opened (and other jobs may be rendering) are left alone.
   */
  async enqueue<K extends JobName>(
    name: K,
    payload: JobPayloads[K] & { generationId: string; userId: string },
    job: QueueOrder & { jobId: string },
    opened: Opened,
    claim?: IdempotencyClaim,
  ): Promise<void> {
    try {
      await this.deps.producer.enqueue(name, payload, job);
    } catch (error) {
      if (opened !== 'nothing')
        await this.abandon(payload.userId, payload.generationId, opened === 'generation' ? undefined : opened.slot);
      await this.release(claim);
      throw error;
    }
  }

  /**
   * Enqueues the job of every generation one call opened (a batch's photos). They were paid for
   * as one, so they fail as one: if Redis refuses any job, every generation of the call is
   * abandoned (slots failed, credits refunded) before the key is released, and the 503 means what
   * it means for a single call, that nothing started. The client's retry with the same key then
   * opens the whole batch again and pays for it once. Keeping the key and replaying the batch
   * instead would answer 202 for photos that never run and leave the seller to find and resend them.
   * Jobs Redis took before refusing stay queued but do nothing: a job checks its generation is
   * still open before it works, and a failed slot cannot be settled (charged) again. Compensation
   * starts at the first refusal, so those jobs have the least time to start.
   */
  async enqueueAll(jobs: QueuedJob[], claim?: IdempotencyClaim): Promise<void> {
    try {
      await Promise.all(jobs.map(({ name, payload, job }) => this.deps.producer.enqueue(name, payload, job)));
    } catch (error) {
      for (const { payload } of jobs) await this.abandon(payload.userId, payload.generationId, undefined);
      await this.release(claim);
      throw error;
    }
  }

  /**
   * What a call opened when Redis refused its job: the generation's open slots (or the one slot it
   * added) fail and their credits come back, so work that can never run holds no credit.
   */
  private async abandon(userId: string, generationId: string, slotIndex: number | undefined): Promise<void> {
    const message = 'The generation could not be queued. Your credits were refunded.';
    const deps = { db: this.deps.db, repos: this.deps.repos };
    const refunded =
      slotIndex === undefined
        ? await settlement.abandonGeneration(deps, { userId, generationId }, message)
        : await settlement.abandonSlot(deps, { userId, generationId, index: slotIndex }, message);
    if (refunded) this.deps.onCreditsChanged?.(userId, refunded.balance);
  }

  /** Nothing started: a retry with the same key may try again. */
  private async release(claim: IdempotencyClaim | undefined): Promise<void> {
    if (claim) await this.deps.repos.idempotencyKeys.release(claim.userId, claim.key);
  }
}

/**
 * A generation ready to open and enqueue: what to open (and charge) and the job that runs it once
 * its id exists. The single calls and a batch build theirs the same way (shots-service.ts), so a
 * batch's photo runs exactly as the same photo would alone; only its place in the queue differs.
 */
export interface GenerationStart<K extends JobName = JobName> {
  open: OpenInput;
  job: K;
  payload: (generationId: string) => JobPayloads[K] & { generationId: string; userId: string };
  order: QueueOrder;
}

/** The start's job, for the generation opened for it. */
export function queuedJob(start: GenerationStart, generationId: string): QueuedJob {
  return {
    name: start.job,
    payload: start.payload(generationId),
    job: { jobId: jobIds.generation(generationId), ...start.order },
  };
}

/** One generation's job, ready to enqueue. */
export interface QueuedJob<K extends JobName = JobName> {
  name: K;
  payload: JobPayloads[K] & { generationId: string; userId: string };
  job: QueueOrder & { jobId: string };
}

function createGeneration(
  generations: GenerationsRepository,
  input: OpenInput,
  batch?: { id: string; position: number },
): Promise<GenerationRow> {
  return generations.create({
    userId: input.userId,
    imageId: input.image.id,
    kind: input.kind,
    stage: input.stage ?? null,
    request: input.request,
    slots: input.slots,
    batch,
  });
}

/** Rolls a retry's transaction back: the slot was not failed when it came to it. */
class SlotNotFailedError extends Error {}

/** One generation's credits to reserve, under the ledger key that keeps it from being taken twice. */
interface Reservation {
  generationId: string;
  amount: number;
  idempotencyKey: string;
}

function reservation(generationId: string, amount: number): Reservation {
  return { generationId, amount, idempotencyKey: ledgerKeys.reserve(generationId) };
}

/**
 * Reserves each generation's credits on its own ledger row (refunds are per generation). A
 * shortfall on any of them names the total the whole call needed against the balance it began with.
 */
async function reserveAll(credits: CreditsRepository, userId: string, reservations: Reservation[]) {
  const needed = reservations.reduce((sum, r) => sum + r.amount, 0);
  let moved = 0;
  let balance: CreditBalance | undefined;
  for (const r of reservations) {
    if (r.amount <= 0) continue;
    try {
      const result = await credits.reserve({ userId, ...r });
      if (result.applied) ({ balance } = result);
      moved += result.moved;
    } catch (error) {
      if (error instanceof InsufficientCreditsError)
        throw new InsufficientCreditsError(needed, error.available + moved);
      throw error;
    }
  }
  return { moved, balance };
}
