// Over 250 lines: the seven paid starts side by side (manual, smart, style, single, remove background, generate
// background, enhance) with their request checks; issue 33 moves each into the use-case service it belongs to.
import { randomUUID } from 'node:crypto';
import {
  AUTO_BACKGROUND,
  SMART_STYLES_DEFAULT,
  shotSizeFor,
  type EnhancePromptRequest,
  type FocusInput,
  type GenerateBackgroundRequest,
  type ProductShotRequest,
  type SingleShotRequest,
  type SmartGenerateRequest,
  type StyleRecommendationsRequest,
} from '@prodshot/contracts';
import type { IdempotencyClaim } from '@prodshot/db';
import { generationOrder, jobIds, QUEUE_ORDER, type JobProducer } from '@prodshot/queue';
import type { FreeAllowance } from './billing/free-allowance.js';
import type { GenerationLookups } from './generation-lookups.js';
import type { GenerationOpener } from './generation-opener.js';
import { jobSource, productShotStart, slotsFor, smartStart, startGeneration } from './generation-starts.js';
import { HttpError } from './http-error.js';
import { paidTaps } from './outline-gate.js';

/** What a call started: its generation (none for prompt enhancement) and the job that runs it, for the logs and the wait. */
export interface Started {
  generationId: string;
  jobId: string;
}

/** The parts of the generation service the calls start work with. */
export interface CallParts {
  opener: GenerationOpener;
  lookups: GenerationLookups;
  producer: JobProducer;
  allowance: FreeAllowance;
}

/** Manual and auto shots: `count` outputs of one template, auto's pick, or one prompt. */
export async function startManual(
  parts: CallParts,
  userId: string,
  body: ProductShotRequest,
  claim?: IdempotencyClaim,
): Promise<Started> {
  const { opener, lookups } = parts;
  const { id } = await opener.once(claim, 'generation', async () => {
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
    return startGeneration(opener, start, claim);
  });
  return { generationId: id, jobId: jobIds.generation(id) };
}

/** Smart generation run by the server: analyse, recommend, then one style-shot per style. */
export async function startSmart(
  parts: CallParts,
  userId: string,
  body: SmartGenerateRequest,
  claim?: IdempotencyClaim,
): Promise<Started> {
  const { opener, lookups } = parts;
  const { id } = await opener.once(claim, 'generation', async () => {
    const [image, plan] = await Promise.all([lookups.ownedImage(userId, body), lookups.effectivePlan(userId)]);
    const styleCount = body.styleCount ?? SMART_STYLES_DEFAULT;
    return startGeneration(
      opener,
      smartStart({
        userId,
        image,
        plan,
        order: generationOrder(plan),
        hints: body,
        flow: { mode: 'fan-out', styleCount },
      }),
      claim,
    );
  });
  return { generationId: id, jobId: jobIds.generation(id) };
}

/**
 * Style recommendations only (free of credits): the client then generates the styles it picks one
 * by one. An account with nothing uses its daily allowance (free-allowance.ts), 402 past it.
 */
export async function startStyle(
  parts: CallParts,
  userId: string,
  body: StyleRecommendationsRequest,
): Promise<Started> {
  const { opener, lookups } = parts;
  const [image, plan] = await Promise.all([lookups.ownedImage(userId, body), lookups.effectivePlan(userId)]);
  const order = await parts.allowance.place(
    userId,
    plan,
    { work: 'recommendation', id: randomUUID() },
    generationOrder(plan),
  );
  const generationId = await startGeneration(
    opener,
    smartStart({ userId, image, plan, order, hints: body, flow: { mode: 'client' } }),
  );
  return { generationId, jobId: jobIds.generation(generationId) };
}

/** One recommended style of a client-driven smart run, as a new slot of its generation (a style already opened costs nothing again). */
export async function startSingle(
  parts: CallParts,
  userId: string,
  body: SingleShotRequest,
  claim?: IdempotencyClaim,
): Promise<Started> {
  const { opener, lookups } = parts;
  const jobId = jobIds.style(body.generationId, body.styleIndex);
  const { id } = await opener.once(claim, 'generation', async () => {
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
    if (existing) await opener.claimKey(claim, generation.id);
    else await opener.openSlot(userId, generation.id, slot, claim);
    await opener.enqueue(
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
export function startRemoveBackground(
  parts: CallParts,
  userId: string,
  imageId: string,
  focus: FocusInput | undefined,
  claim?: IdempotencyClaim,
): Promise<Started> {
  return startSingleOutput(parts, userId, imageId, 'remove-background', {}, focus, claim);
}

/** A new background behind a stored image's product: one output of a template or a prompt, one credit. */
export function startGenerateBackground(
  parts: CallParts,
  userId: string,
  imageId: string,
  body: GenerateBackgroundRequest,
  claim?: IdempotencyClaim,
): Promise<Started> {
  return startSingleOutput(
    parts,
    userId,
    imageId,
    'generate-background',
    { backgroundType: body.backgroundType, prompt: body.prompt?.trim() || undefined },
    body.focus,
    claim,
  );
}

async function startSingleOutput(
  parts: CallParts,
  userId: string,
  imageId: string,
  kind: 'remove-background' | 'generate-background',
  background: { backgroundType?: GenerateBackgroundRequest['backgroundType']; prompt?: string | undefined },
  callFocus: FocusInput | undefined,
  claim: IdempotencyClaim | undefined,
): Promise<Started> {
  const { opener, lookups } = parts;
  const { id } = await opener.once(claim, 'generation', async () => {
    const [image, plan] = await Promise.all([lookups.ownedImage(userId, { imageId }), lookups.effectivePlan(userId)]);
    const focus = paidTaps(image, callFocus);
    const slotName = kind === 'remove-background' ? 'Background removed' : undefined;
    const [slot] = slotsFor(1, background.backgroundType, background.prompt);
    const generation = await opener.open({
      userId,
      image,
      kind,
      request: { ...background, focus: focus ?? null },
      slots: [{ ...slot!, ...(slotName ? { name: slotName, backgroundType: 'transparent' } : {}) }],
      credits: 1,
      claim,
    });
    const source = jobSource(generation.id, userId, image, { focus });
    const job = { jobId: jobIds.generation(generation.id), ...generationOrder(plan) };
    if (kind === 'remove-background') await opener.enqueue('remove-background', source, job, 'generation', claim);
    else
      await opener.enqueue(
        'generate-background',
        { ...source, backgroundType: background.backgroundType, prompt: background.prompt, size: shotSizeFor(plan) },
        job,
        'generation',
        claim,
      );
    return generation.id;
  });
  return { generationId: id, jobId: jobIds.generation(id) };
}

/** Prompt enhancement, on the plans that include it (403 otherwise); nothing is charged or opened. */
export async function startEnhance(
  parts: CallParts,
  userId: string,
  body: EnhancePromptRequest,
): Promise<{ jobId: string }> {
  await parts.lookups.planWith(userId, 'promptEnhancement');
  const jobId = jobIds.enhance(randomUUID());
  await parts.producer.enqueue(
    'enhance-prompt',
    { userId, prompt: body.prompt.trim(), productTitle: body.productTitle },
    { jobId, attempts: 2, ...QUEUE_ORDER.prompt },
  );
  return { jobId };
}

/** A request that names neither a template nor a prompt has nothing to render: 400 before anything is looked up. */
export function checkBackground(body: { backgroundType?: string | undefined; prompt?: string | undefined }): void {
  if (!body.backgroundType && blank(body.prompt))
    throw new HttpError(400, 'Choose a template or describe a background', 'missing_background');
}

/** Auto mode picks the scene itself: a prompt beside it is refused. */
export function checkManualShot(body: ProductShotRequest): void {
  checkBackground(body);
  if (body.backgroundType === AUTO_BACKGROUND && !blank(body.prompt))
    throw new HttpError(400, 'Auto mode picks the scene itself: send no prompt with it', 'auto_with_prompt');
}

export function checkEnhance(body: EnhancePromptRequest): void {
  if (blank(body.prompt)) throw new HttpError(400, 'Write a prompt to enhance', 'empty_prompt');
}

function blank(text: string | undefined): boolean {
  return !text || text.trim().length === 0;
}
