// Over 250 lines: every paid start of the image model calls, with its checks at its top, beside the builders
// of what a shot opens and runs and the outline gate they all pass; a batch builds its photos with the same
// builders, so a batch's photo runs exactly as the same photo alone.
import { randomUUID } from 'node:crypto';
import {
  AUTO_BACKGROUND,
  OUTLINE_UNCONFIRMED_MESSAGE,
  outlineNeedsConfirmation,
  shotSizeFor,
  SMART_STYLES_DEFAULT,
  storedTaps,
  tapsOf,
  templateName,
  type EnhancePromptRequest,
  type FocusInput,
  type GenerateBackgroundRequest,
  type JobPayloads,
  type PlanId,
  type ProductShotRequest,
  type SingleShotRequest,
  type SmartGenerateRequest,
  type StyleRecommendationMode,
  type StyleRecommendationsRequest,
  type Tap,
} from '@prodshot/contracts';
import type { IdempotencyClaim, ImageRow, NewSlot } from '@prodshot/db';
import { generationOrder, jobIds, QUEUE_ORDER, type JobProducer, type QueueOrder } from '@prodshot/queue';
import type { FreeAllowance } from '../billing/free-allowance.js';
import { HttpError } from '../http-error.js';
import type { GenerationLookups } from './generation-lookups.js';
import type { GenerationStart, PaidWork } from './paid-work.js';

/** What a call started: its generation and the job that runs it, for the logs and the wait. */
export interface Started {
  generationId: string;
  jobId: string;
}

export interface ShotsDeps {
  paidWork: PaidWork;
  lookups: GenerationLookups;
  producer: JobProducer;
  allowance: FreeAllowance;
}

/**
 * The image model calls of docs/product-spec.md §7. Each checks its request, finds the caller's
 * upload and plan, and hands paid work (paid-work.ts) what to open, charge and enqueue, once per
 * Idempotency-Key. The routes then answer 202 or wait (generation-waits.ts).
 */
export class ShotsService {
  constructor(private readonly deps: ShotsDeps) {}

  /** Manual and auto shots: `count` outputs of one template, auto's pick, or one prompt. */
  async startManual(userId: string, body: ProductShotRequest, claim?: IdempotencyClaim): Promise<Started> {
    checkBackground(body);
    if (body.backgroundType === AUTO_BACKGROUND && !blank(body.prompt))
      throw new HttpError(400, 'Auto mode picks the scene itself: send no prompt with it', 'auto_with_prompt');
    const { paidWork, lookups } = this.deps;
    const id = await paidWork.once(claim, 'generation', async () => {
      const [image, plan] = await Promise.all([lookups.ownedImage(userId, body), lookups.effectivePlan(userId)]);
      const start = productShotStart({
        userId,
        image,
        plan,
        order: generationOrder(plan),
        hints: body,
        backgroundType: body.backgroundType,
        prompt: body.prompt?.trim() || undefined,
        count: body.count ?? 1,
        upscaleImageFirst: body.upscaleImageFirst,
      });
      return paidWork.start(start, claim);
    });
    return { generationId: id, jobId: jobIds.generation(id) };
  }

  /** Smart generation run by the server: analyse, recommend, then one style-shot per style. */
  async startSmart(userId: string, body: SmartGenerateRequest, claim?: IdempotencyClaim): Promise<Started> {
    const { paidWork, lookups } = this.deps;
    const id = await paidWork.once(claim, 'generation', async () => {
      const [image, plan] = await Promise.all([lookups.ownedImage(userId, body), lookups.effectivePlan(userId)]);
      const flow = { mode: 'fan-out', styleCount: body.styleCount ?? SMART_STYLES_DEFAULT } as const;
      const start = smartStart({ userId, image, plan, order: generationOrder(plan), hints: body, flow });
      return paidWork.start(start, claim);
    });
    return { generationId: id, jobId: jobIds.generation(id) };
  }

  /**
   * Style recommendations only (free of credits): the client then generates the styles it picks one
   * by one. An account with nothing uses its daily allowance (free-allowance.ts), 402 past it.
   */
  async startStyle(userId: string, body: StyleRecommendationsRequest): Promise<Started> {
    const { paidWork, lookups } = this.deps;
    const [image, plan] = await Promise.all([lookups.ownedImage(userId, body), lookups.effectivePlan(userId)]);
    const use = { work: 'recommendation', id: randomUUID() } as const;
    const order = await this.deps.allowance.place(userId, plan, use, generationOrder(plan));
    const generationId = await paidWork.start(
      smartStart({ userId, image, plan, order, hints: body, flow: { mode: 'client' } }),
    );
    return { generationId, jobId: jobIds.generation(generationId) };
  }

  /** One recommended style of a client-driven smart run, as a new slot of its generation (a style already opened costs nothing again). */
  async startSingle(userId: string, body: SingleShotRequest, claim?: IdempotencyClaim): Promise<Started> {
    const { paidWork, lookups } = this.deps;
    const jobId = jobIds.style(body.generationId, body.styleIndex);
    const id = await paidWork.once(claim, 'generation', async () => {
      const [generation, plan] = await Promise.all([
        lookups.ownedGeneration(userId, body.generationId),
        lookups.effectivePlan(userId),
      ]);
      const image = await lookups.ownedImage(userId, {
        imageId: generation.image_id ?? body.imageId,
        fileId: body.fileId,
        imageUrl: body.imageUrl,
      });
      const focus = paidTaps(image, body.focus);
      const existing = generation.styles.find((s) => s.index === body.styleIndex);
      if (existing?.status === 'failed')
        throw new HttpError(
          409,
          `This style already failed; retry it with POST /api/generations/${generation.id}/styles/${body.styleIndex}/retry`,
          'style_failed',
        );
      const slot = {
        index: body.styleIndex,
        name: body.styleName,
        prompt: body.stylePrompt,
        backgroundType: body.styleName,
      };
      // A style already opened costs nothing again; the key still records what it asked for.
      if (existing) await paidWork.claimKey(claim, generation.id);
      else await paidWork.openSlot(userId, generation.id, slot, claim);
      await paidWork.enqueue(
        'style-shot',
        {
          ...jobSource(generation.id, userId, image, { ...body, focus }),
          styleIndex: body.styleIndex,
          styleName: body.styleName,
          stylePrompt: body.stylePrompt,
          size: shotSizeFor(plan),
        },
        { jobId, ...generationOrder(plan) },
        existing ? 'nothing' : { slot: body.styleIndex },
        claim,
      );
      return generation.id;
    });
    return { generationId: id, jobId };
  }

  /** The background removed from a stored image: one output, one credit. */
  startRemoveBackground(
    userId: string,
    imageId: string,
    focus: FocusInput | undefined,
    claim?: IdempotencyClaim,
  ): Promise<Started> {
    return this.startSingleOutput(userId, imageId, 'remove-background', {}, focus, claim);
  }

  /** A new background behind a stored image's product: one output of a template or a prompt, one credit. */
  startGenerateBackground(
    userId: string,
    imageId: string,
    body: GenerateBackgroundRequest,
    claim?: IdempotencyClaim,
  ): Promise<Started> {
    checkBackground(body);
    const background = { backgroundType: body.backgroundType, prompt: body.prompt?.trim() || undefined };
    return this.startSingleOutput(userId, imageId, 'generate-background', background, body.focus, claim);
  }

  /** Prompt enhancement, on the plans that include it (403 otherwise); nothing is charged or opened. */
  async startEnhance(userId: string, body: EnhancePromptRequest): Promise<{ jobId: string }> {
    if (blank(body.prompt)) throw new HttpError(400, 'Write a prompt to enhance', 'empty_prompt');
    await this.deps.lookups.planWith(userId, 'promptEnhancement');
    const jobId = jobIds.enhance(randomUUID());
    await this.deps.producer.enqueue(
      'enhance-prompt',
      { userId, prompt: body.prompt.trim(), productTitle: body.productTitle },
      { jobId, attempts: 2, ...QUEUE_ORDER.prompt },
    );
    return { jobId };
  }

  private async startSingleOutput(
    userId: string,
    imageId: string,
    kind: 'remove-background' | 'generate-background',
    background: { backgroundType?: GenerateBackgroundRequest['backgroundType']; prompt?: string | undefined },
    callFocus: FocusInput | undefined,
    claim: IdempotencyClaim | undefined,
  ): Promise<Started> {
    const { paidWork, lookups } = this.deps;
    const id = await paidWork.once(claim, 'generation', async () => {
      const [image, plan] = await Promise.all([lookups.ownedImage(userId, { imageId }), lookups.effectivePlan(userId)]);
      const focus = paidTaps(image, callFocus);
      const [slot] = slotsFor(1, background.backgroundType, background.prompt);
      const removed = kind === 'remove-background' ? { name: 'Background removed', backgroundType: 'transparent' } : {};
      const generation = await paidWork.open({
        userId,
        image,
        kind,
        request: { ...background, focus: focus ?? null },
        slots: [{ ...slot!, ...removed }],
        credits: 1,
        claim,
      });
      const source = jobSource(generation.id, userId, image, { focus });
      const job = { jobId: jobIds.generation(generation.id), ...generationOrder(plan) };
      if (kind === 'remove-background') await paidWork.enqueue('remove-background', source, job, 'generation', claim);
      else
        await paidWork.enqueue(
          'generate-background',
          { ...source, ...background, size: shotSizeFor(plan) },
          job,
          'generation',
          claim,
        );
      return generation.id;
    });
    return { generationId: id, jobId: jobIds.generation(id) };
  }
}

/** The seller's hints every generation job carries, as a call sends them. */
export interface ProductHints {
  productTitle?: string | undefined;
  productDescription?: string | undefined;
  focus?: FocusInput | undefined;
}

/** The hints once the outline gate has read the call's focus: the taps the generation cuts out with. */
type ReadHints = Omit<ProductHints, 'focus'> & { focus?: Tap[] | undefined };

/**
 * What every generation job starts from: whose it is, the upload it works on, and the seller's
 * hints. A title sent with the call wins; otherwise the one the seller gave the upload is the hint.
 */
export function jobSource(generationId: string, userId: string, image: ImageRow, hints: ReadHints) {
  return {
    generationId,
    userId,
    imageId: image.id,
    sourceKey: image.storage_key,
    productTitle: productTitle(image, hints),
    productDescription: hints.productDescription,
    focus: hints.focus,
  };
}

/** Manual and auto shots: `count` outputs of one template, auto's pick, or one prompt; a credit each (409 on an unconfirmed unsure outline). */
export function productShotStart(input: {
  userId: string;
  image: ImageRow;
  plan: PlanId;
  order: QueueOrder;
  hints: ProductHints;
  backgroundType?: string | undefined;
  prompt?: string | undefined;
  count: number;
  upscaleImageFirst?: boolean | undefined;
}): GenerationStart<'product-shot'> {
  const { userId, image, backgroundType, prompt, count } = input;
  const hints = { ...input.hints, focus: paidTaps(image, input.hints.focus) };
  return {
    open: {
      userId,
      image,
      kind: backgroundType === AUTO_BACKGROUND ? 'auto' : 'manual',
      request: {
        backgroundType: backgroundType ?? null,
        prompt: prompt ?? null,
        count,
        focus: hints.focus ?? null,
        ...titled(image, hints),
      },
      slots: slotsFor(count, backgroundType, prompt),
      credits: count,
    },
    job: 'product-shot',
    payload: (generationId) => ({
      ...jobSource(generationId, userId, image, hints),
      backgroundType: backgroundType as JobPayloads['product-shot']['backgroundType'],
      prompt,
      count,
      upscaleImageFirst: input.upscaleImageFirst ?? false,
      size: shotSizeFor(input.plan),
    }),
    order: input.order,
  };
}

/**
 * Smart generation: analyse → recommend; in 'fan-out' mode (409 on an unconfirmed unsure outline) the worker then opens and enqueues one
 * style-shot per style, each a credit, and those jobs take this job's place in the queue.
 */
export function smartStart(input: {
  userId: string;
  image: ImageRow;
  plan: PlanId;
  order: QueueOrder;
  hints: ProductHints;
  flow: StyleRecommendationMode;
}): GenerationStart<'style-recommendation'> {
  const { userId, image, flow } = input;
  // Recommendations alone hold nothing: the client's paid style calls are gated one by one.
  const focus = flow.mode === 'fan-out' ? paidTaps(image, input.hints.focus) : chosenTaps(image, input.hints.focus);
  const hints = { ...input.hints, focus };
  return {
    open: {
      userId,
      image,
      kind: 'smart',
      stage: 'analysing',
      request: {
        ...(flow.mode === 'fan-out' ? { styleCount: flow.styleCount } : { clientDriven: true }),
        focus: focus ?? null,
        ...titled(image, hints),
      },
      slots: [],
      credits: flow.mode === 'fan-out' ? flow.styleCount : 0,
    },
    job: 'style-recommendation',
    payload: (generationId) => ({
      ...jobSource(generationId, userId, image, hints),
      ...flow,
      size: shotSizeFor(input.plan),
    }),
    order: input.order,
  };
}

/** `count` slots of one template, auto's pick or one prompt, named as the history names them. */
function slotsFor(count: number, backgroundType: string | undefined, prompt: string | undefined): NewSlot[] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    name: templateName(backgroundType),
    prompt: prompt?.trim() || null,
    backgroundType: backgroundType ?? 'custom',
  }));
}

/**
 * The taps a generation from this upload uses, read here once for every call: the call's own
 * `focus` (a lone point is one keep tap), else the taps the seller fixed the outline with (none:
 * the engine's pick, the outline they confirmed or that it was sure of).
 */
function chosenTaps(image: ImageRow, focus: FocusInput | undefined): Tap[] | undefined {
  return tapsOf(focus) ?? storedTaps(image.outline?.focus);
}

/**
 * chosenTaps for a call that holds credits: an unsure outline the seller has neither confirmed
 * nor fixed is 409 `outline_unconfirmed` before anything is reserved. A call's own focus is the
 * seller's choice, as the tap step makes it. An upload whose outline is not made yet is not held
 * back: the upload screens wait for it, and API clients keep today's behaviour.
 */
function paidTaps(image: ImageRow, focus: FocusInput | undefined): Tap[] | undefined {
  if (!focus && outlineNeedsConfirmation(image.outline))
    throw new HttpError(409, OUTLINE_UNCONFIRMED_MESSAGE, 'outline_unconfirmed', { imageId: image.id });
  return chosenTaps(image, focus);
}

function productTitle(image: ImageRow, hints: Pick<ProductHints, 'productTitle'>): string | undefined {
  return hints.productTitle?.trim() || image.product_title || undefined;
}

/** The title on the generation's request too, so its downloads and exports are named after it. */
function titled(image: ImageRow, hints: Pick<ProductHints, 'productTitle'>): { productTitle?: string } {
  const title = productTitle(image, hints);
  return title ? { productTitle: title } : {};
}

/** A request that names neither a template nor a prompt has nothing to render: 400 before anything is looked up. */
function checkBackground(body: { backgroundType?: string | undefined; prompt?: string | undefined }): void {
  if (!body.backgroundType && blank(body.prompt))
    throw new HttpError(400, 'Choose a template or describe a background', 'missing_background');
}

function blank(text: string | undefined): boolean {
  return !text || text.trim().length === 0;
}
