import {
  AUTO_BACKGROUND,
  shotSizeFor,
  templateName,
  type FocusInput,
  type JobName,
  type JobPayloads,
  type PlanId,
  type StyleRecommendationMode,
  type Tap,
} from '@prodshot/contracts';
import type { IdempotencyClaim, ImageRow, NewSlot } from '@prodshot/db';
import { jobIds, type QueueOrder } from '@prodshot/queue';
import type { GenerationOpener, OpenInput, QueuedJob } from './generation-opener.js';
import { chosenTaps, paidTaps } from './outline-gate.js';

/** The seller's hints every generation job carries, as a call sends them. */
export interface ProductHints {
  productTitle?: string | undefined;
  productDescription?: string | undefined;
  focus?: FocusInput | undefined;
}

/** The hints once the outline gate has read the call's focus: the taps the generation cuts out with. */
export type ReadHints = Omit<ProductHints, 'focus'> & { focus?: Tap[] | undefined };

/**
 * A generation ready to open and enqueue: what to open (and charge) and the job that runs it once
 * its id exists. The single calls and a batch build theirs the same way, so a batch's photo runs
 * exactly as the same photo would alone; only its place in the queue differs.
 */
export interface GenerationStart<K extends JobName = JobName> {
  open: OpenInput;
  job: K;
  payload: (generationId: string) => JobPayloads[K] & { generationId: string; userId: string };
  order: QueueOrder;
}

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

function productTitle(image: ImageRow, hints: Pick<ProductHints, 'productTitle'>): string | undefined {
  return hints.productTitle?.trim() || image.product_title || undefined;
}

/** The title on the generation's request too, so its downloads and exports are named after it. */
function titled(image: ImageRow, hints: Pick<ProductHints, 'productTitle'>): { productTitle?: string } {
  const title = productTitle(image, hints);
  return title ? { productTitle: title } : {};
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
export function slotsFor(count: number, backgroundType: string | undefined, prompt: string | undefined): NewSlot[] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    name: templateName(backgroundType),
    prompt: prompt?.trim() || null,
    backgroundType: backgroundType ?? 'custom',
  }));
}

/** Opens (and charges) one start and enqueues its job under the generation's id. */
export async function startGeneration(
  opener: GenerationOpener,
  start: GenerationStart,
  claim?: IdempotencyClaim,
): Promise<string> {
  const generation = await opener.open({ ...start.open, claim });
  const { name, payload, job } = queuedJob(start, generation.id);
  await opener.enqueue(name, payload as never, job, 'generation', claim);
  return generation.id;
}

/** The start's job, for the generation opened for it. */
export function queuedJob(start: GenerationStart, generationId: string): QueuedJob {
  return {
    name: start.job,
    payload: start.payload(generationId),
    job: { jobId: jobIds.generation(generationId), ...start.order },
  };
}
