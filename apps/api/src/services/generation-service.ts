import {
  IDEMPOTENCY_WINDOW_HOURS,
  PLAN_REQUIRED_CODE,
  RETRY_STYLE_CREDITS,
  planAllows,
  planRequiredMessage,
  templateName,
  UPGRADE_URL,
  type PlanFeature,
  type PlanId,
  type PlanRequiredErrorBody,
  type GenerationDto,
  type GenerationListItem,
  type JobName,
  type JobPayloads,
  type OutputRef,
  type ProcessedImageDto,
  type SmartStage,
  type StyleSlotDto,
} from '@prodshot/contracts';
import {
  BatchesRepository,
  CreditsRepository,
  GenerationsRepository,
  IdempotencyKeysRepository,
  type IdempotencyClaim,
  ImagesRepository,
  InsufficientCreditsError,
  SubscriptionsRepository,
  ledgerKeys,
  settlement,
  type CreditBalance,
  type Db,
  type GenerationKind,
  type GenerationRow,
  type GenerationStyleRow,
  type GenerationWithStyles,
  type ImageRow,
  type NewSlot,
  type RetriedSlot,
  type RecentOutput,
} from '@prodshot/db';
import type { JobProducer, QueueOrder } from '@prodshot/queue';
import { effectivePlan } from './billing.js';
import { HttpError } from './http-error.js';
import { InsufficientCreditsHttpError, reservation, reserveAll, type Reservation } from './reservations.js';
import { heldTarget, IdempotentReplayError } from './idempotency.js';
import { imageNotFound, uploadByUrl } from './image-url.js';
import { signImage, type ObjectStore } from '@prodshot/storage';

export interface GenerationServiceDeps {
  db: Db;
  store: ObjectStore;
  /** Where the app is served (PUBLIC_URL): relative links in an `imageUrl` are relative to it. */
  config: { http: { publicUrl: string } };
  producer: JobProducer;
  /** Told after a reservation moved the user's credits. */
  onCreditsChanged?: ((userId: string, balance: CreditBalance) => void) | undefined;
  metrics?: { creditsReserved(amount: number): void } | undefined;
}

/** What a call opened: a whole new generation, one new slot of an existing one, or nothing new. */
export type Opened = 'generation' | { slot: number } | 'nothing';

/**
 * What the generation endpoints share: find the caller's image, open a generation with its slots,
 * reserve its credits, enqueue its job. Credits are reserved before anything is enqueued, and a
 * refused reservation leaves no generation behind.
 */
export class GenerationService {
  readonly images: ImagesRepository;
  readonly generations: GenerationsRepository;
  readonly credits: CreditsRepository;
  readonly idempotencyKeys: IdempotencyKeysRepository;

  constructor(private readonly deps: GenerationServiceDeps) {
    this.images = new ImagesRepository(deps.db);
    this.generations = new GenerationsRepository(deps.db);
    this.credits = new CreditsRepository(deps.db);
    this.idempotencyKeys = new IdempotencyKeysRepository(deps.db, IDEMPOTENCY_WINDOW_HOURS);
  }

  /**
   * Starts paid work once per Idempotency-Key: a repeat of the same request (a retry, a double
   * click, a reload) gets the generation the first one started and charges nothing more.
   */
  async once(claim: IdempotencyClaim | undefined, start: () => Promise<string>): Promise<{ generationId: string; replayed: boolean }> {
    const held = claim && (await this.idempotencyKeys.find(claim.userId, claim.key));
    if (held) return { generationId: heldTarget(held, claim, 'generation'), replayed: true };
    try {
      return { generationId: await start(), replayed: false };
    } catch (error) {
      if (!(claim && error instanceof IdempotentReplayError)) throw error;
      return { generationId: heldTarget(error.held, claim, 'generation'), replayed: true };
    }
  }

  /** Records the key for a request that opens nothing new (so the same key with another request is still refused). */
  async claimKey(claim: IdempotencyClaim | undefined, generationId: string): Promise<void> {
    const held = claim && (await this.idempotencyKeys.claim(claim, { generationId }));
    if (held) throw new IdempotentReplayError(held);
  }

  /**
   * The caller's image by imageId or fileId, or else by an imageUrl of ours (see uploadByUrl); 404
   * for anything else, another user's ids and links included. Ids win over a URL sent beside them.
   */
  async ownedImage(userId: string, ref: { imageId?: string | undefined; fileId?: string | undefined; imageUrl?: string | undefined }): Promise<ImageRow> {
    const id = ref.imageId ?? ref.fileId;
    if (!id && ref.imageUrl) return uploadByUrl({ store: this.deps.store, images: this.images, appOrigin: this.deps.config.http.publicUrl }, userId, ref.imageUrl);
    if (!id) throw new HttpError(400, 'Name the image: imageId, fileId or imageUrl', 'missing_image');
    const image = await this.images.findOwned(userId, id);
    if (!image) throw imageNotFound();
    return image;
  }

  async ownedGeneration(userId: string, id: string): Promise<GenerationWithStyles> {
    const generation = await this.generations.findOwned(userId, id);
    if (!generation) throw new HttpError(404, 'Generation not found', 'generation_not_found');
    return generation;
  }

  /** The plan whose quality, features and priority apply: a cancelled plan's until the paid period ends (decisions.md, Money). */
  async effectivePlan(userId: string): Promise<PlanId> {
    return effectivePlan(await new SubscriptionsRepository(this.deps.db).findByUserId(userId));
  }

  /**
   * Refuses a call the seller's plan does not include (403 with where to upgrade), before anything
   * is reserved or queued; answers the plan, which the call goes on with.
   */
  async planWith(userId: string, feature: PlanFeature): Promise<PlanId> {
    const plan = await this.effectivePlan(userId);
    if (!planAllows(plan, feature)) throw new PlanRequiredError(feature);
    return plan;
  }

  /**
   * Opens a generation with its slots and reserves `credits` for it, committed together: a refused
   * reservation (402) leaves no generation behind.
   */
  async open(input: OpenInput & { claim?: IdempotencyClaim | undefined }): Promise<GenerationRow> {
    return this.charged(input.userId, input.claim, async (db) => {
      const generation = await createGeneration(db, input);
      return { value: generation, target: { generationId: generation.id }, reservations: [reservation(generation.id, input.credits)] };
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
    return this.charged(input.userId, input.claim, async (db) => {
      const batch = await new BatchesRepository(db).create({ userId: input.userId, choice: input.choice, credits });
      const generations: GenerationRow[] = [];
      for (const [position, open] of input.generations.entries()) generations.push(await createGeneration(db, open, { id: batch.id, position }));
      return {
        value: { batchId: batch.id, generations },
        target: { batchId: batch.id },
        reservations: generations.map((generation, index) => reservation(generation.id, input.generations[index]!.credits)),
      };
    });
  }

  /** Adds one slot to a generation (reopening it if it had settled) and reserves its credit, together. */
  async openSlot(userId: string, generationId: string, slot: NewSlot, claim?: IdempotencyClaim): Promise<void> {
    await this.charged(userId, claim, async (db) => {
      await new GenerationsRepository(db).reopenWithSlot(generationId, slot);
      return { value: undefined, target: { generationId }, reservations: [{ generationId, amount: 1, idempotencyKey: ledgerKeys.reserveSlot(generationId, slot.index) }] };
    });
  }

  /**
   * Queues a failed slot again as its next attempt and reserves its credit, together: the credit is
   * settled if the attempt stores an output and refunded if it fails again. Null when the slot was
   * not failed (a concurrent retry won), with nothing reserved.
   */
  async retrySlot(userId: string, generationId: string, index: number, claim?: IdempotencyClaim): Promise<RetriedSlot | null> {
    try {
      return await this.charged(userId, claim, async (db) => {
        const slot = await new GenerationsRepository(db).retryFailedStyle(generationId, index);
        if (!slot) throw new SlotNotFailedError();
        const reserve = { generationId, amount: RETRY_STYLE_CREDITS, idempotencyKey: ledgerKeys.reserveSlot(generationId, index, slot.attempt) };
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
    work: (db: Db) => Promise<{ value: T; target: { generationId: string } | { batchId: string }; reservations: Reservation[] }>,
  ): Promise<T> {
    const reserved = await this.deps.db
      .transaction()
      .execute(async (tx) => {
        const { value, target, reservations } = await work(tx);
        if (claim) {
          const held = await new IdempotencyKeysRepository(tx, IDEMPOTENCY_WINDOW_HOURS).claim(claim, target);
          if (held) throw new IdempotentReplayError(held);
        }
        return { value, ...(await reserveAll(new CreditsRepository(tx), userId, reservations)) };
      })
      .catch((error: unknown) => {
        if (error instanceof InsufficientCreditsError) throw new InsufficientCreditsHttpError(error.needed, error.available);
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
    opened: Opened = 'generation',
    claim?: IdempotencyClaim,
  ): Promise<void> {
    try {
      await this.deps.producer.enqueue(name, payload, job);
    } catch (error) {
      if (opened !== 'nothing') await this.abandon(payload.userId, payload.generationId, opened === 'generation' ? undefined : opened.slot);
      // Nothing started: a retry with the same key may try again.
      if (claim) await this.idempotencyKeys.release(claim.userId, claim.key);
      throw error;
    }
  }

  private async abandon(userId: string, generationId: string, slotIndex: number | undefined): Promise<void> {
    const message = 'The generation could not be queued. Your credits were refunded.';
    const refunded =
      slotIndex === undefined
        ? await settlement.abandonGeneration(this.deps.db, { userId, generationId }, message)
        : await settlement.abandonSlot(this.deps.db, { userId, generationId, index: slotIndex }, message);
    if (refunded) this.deps.onCreditsChanged?.(userId, refunded.balance);
  }

  async toDto(generation: GenerationWithStyles): Promise<GenerationDto> {
    const productInfo = generation.product_info as (Record<string, unknown> & { unsupportedProduct?: boolean }) | null;
    const styles = await Promise.all(
      generation.styles.map(async (style) => ({
        index: style.index,
        name: style.name,
        prompt: style.prompt,
        status: style.status,
        progress: style.progress,
        ...(await this.slotUrls(style)),
        error: style.error,
        backgroundType: style.background_type,
        seed: style.seed,
      })),
    );
    return {
      id: generation.id,
      kind: generation.kind,
      status: generation.status,
      stage: (generation.stage as SmartStage | null) ?? null,
      imageId: generation.image_id,
      productInfo: productInfo
        ? {
            productTitle: String(productInfo.productTitle ?? ''),
            productDescription: String(productInfo.productDescription ?? ''),
            productType: String(productInfo.productType ?? ''),
          }
        : null,
      error: generation.error,
      unsupportedProduct: productInfo?.unsupportedProduct === true,
      styles,
      createdAt: generation.created_at.toISOString(),
      origin: originOf(generation.request),
    };
  }

  private async slotUrls(style: GenerationStyleRow): Promise<Pick<StyleSlotDto, 'url' | 'thumbnailUrl' | 'previewUrl'>> {
    if (!style.result_key || style.status !== 'complete') return { url: null, thumbnailUrl: null, previewUrl: null };
    return signImage(this.deps.store, style.result_key, style.renditions);
  }

  async recentGenerationDto(output: RecentOutput): Promise<GenerationListItem> {
    const { url, ...renditions } = await signImage(this.deps.store, output.resultKey, output.renditions);
    return { id: output.id, generationId: output.generationId, index: output.index, imageUrl: url, ...renditions, createdAt: output.createdAt.toISOString() };
  }

  /** The spec's processedImages: one per completed slot. */
  async processedImages(generation: GenerationWithStyles): Promise<ProcessedImageDto[]> {
    const done = generation.styles.filter((s) => s.status === 'complete' && s.result_key);
    return Promise.all(
      done.map(async (style) => ({
        ...(await signImage(this.deps.store, style.result_key!, style.renditions)),
        settings: { backgroundType: style.background_type ?? style.name },
      })),
    );
  }
}

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

function createGeneration(db: Db, input: OpenInput, batch?: { id: string; position: number }): Promise<GenerationRow> {
  return new GenerationsRepository(db).create({
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

/** 403 for a feature outside the seller's plan; its body says which feature and where to upgrade. */
export class PlanRequiredError extends HttpError {
  constructor(feature: PlanFeature) {
    const details: Pick<PlanRequiredErrorBody, 'feature' | 'upgradeUrl'> = { feature, upgradeUrl: UPGRADE_URL };
    super(403, planRequiredMessage(feature), PLAN_REQUIRED_CODE, details);
  }
}

/** Where a More like this came from, as its request recorded it. */
function originOf(request: unknown): OutputRef | null {
  const from = (request as { from?: Partial<OutputRef> } | null)?.from;
  return typeof from?.generationId === 'string' && typeof from.index === 'number' ? { generationId: from.generationId, index: from.index } : null;
}

export function slotsFor(count: number, backgroundType: string | undefined, prompt: string | undefined): NewSlot[] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    name: templateName(backgroundType),
    prompt: prompt?.trim() || null,
    backgroundType: backgroundType ?? 'custom',
  }));
}
