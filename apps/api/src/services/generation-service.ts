import path from 'node:path';
import {
  RECENT_GENERATIONS_DEFAULT,
  type DownloadQuery,
  type EnhancePromptRequest,
  type FocusInput,
  type GenerateBackgroundRequest,
  type GenerationDto,
  type GenerationListResponse,
  type JobName,
  type ListPageQuery,
  type OutputRef,
  type PlanId,
  type ProcessedImageDto,
  type ProductShotRequest,
  type SingleShotRequest,
  type SmartGenerateRequest,
  type StyleRecommendationsRequest,
  type StyleRecommendationsResponse,
} from '@prodshot/contracts';
import {
  generationDto,
  type GenerationRow,
  type IdempotencyClaim,
  type ImageRow,
  type Repositories,
} from '@prodshot/db';
import type { ServiceDeps } from './services.js';
import { recentGenerationDto } from './generation-dtos.js';
import type { FreeAllowance } from './billing/free-allowance.js';
import { GenerationLookups } from './generation-lookups.js';
import { GenerationOpener, type OpenInput, type QueuedJob } from './generation-opener.js';
import { GenerationWaits } from './generation-waits.js';
import { HttpError } from './http-error.js';
import { moreLikeThis, retryStyle, type IterateParts } from './iterate-calls.js';
import { decodeCursor, encodeCursor } from './list-cursor.js';
import { requestRenditions } from './rendition-requests.js';
import * as calls from './shot-calls.js';
import type { Log } from './log.js';

/**
 * The generation use-cases: the image model calls, iterating on a result, and reading where a
 * generation stands. Each start finds the caller's image, opens its generation with its slots,
 * reserves its credits and enqueues its job (generation-opener.ts); the synchronous calls then
 * wait for it (generation-waits.ts). Routes only call these and reply.
 */
export class GenerationService {
  private readonly repos: Repositories;
  private readonly opener: GenerationOpener;
  private readonly lookups: GenerationLookups;
  private readonly waits: GenerationWaits;
  private readonly calls: calls.CallParts;
  private readonly iterate: IterateParts;

  constructor(
    private readonly deps: ServiceDeps,
    allowance: FreeAllowance,
  ) {
    this.repos = deps.repos;
    this.opener = new GenerationOpener(deps);
    this.lookups = new GenerationLookups(deps);
    this.waits = new GenerationWaits({
      producer: deps.producer,
      store: deps.store,
      generations: deps.repos.generations,
    });
    this.calls = { opener: this.opener, lookups: this.lookups, producer: deps.producer, allowance };
    this.iterate = {
      opener: this.opener,
      lookups: this.lookups,
      images: deps.repos.images,
      generations: deps.repos.generations,
    };
  }

  startManual(userId: string, body: ProductShotRequest, claim?: IdempotencyClaim) {
    return calls.startManual(this.calls, userId, body, claim);
  }

  startSmart(userId: string, body: SmartGenerateRequest, claim?: IdempotencyClaim) {
    return calls.startSmart(this.calls, userId, body, claim);
  }

  startStyle(userId: string, body: StyleRecommendationsRequest) {
    return calls.startStyle(this.calls, userId, body);
  }

  startSingle(userId: string, body: SingleShotRequest, claim?: IdempotencyClaim) {
    return calls.startSingle(this.calls, userId, body, claim);
  }

  startRemoveBackground(userId: string, imageId: string, focus: FocusInput | undefined, claim?: IdempotencyClaim) {
    return calls.startRemoveBackground(this.calls, userId, imageId, focus, claim);
  }

  startGenerateBackground(userId: string, imageId: string, body: GenerateBackgroundRequest, claim?: IdempotencyClaim) {
    return calls.startGenerateBackground(this.calls, userId, imageId, body, claim);
  }

  startEnhance(userId: string, body: EnhancePromptRequest) {
    return calls.startEnhance(this.calls, userId, body);
  }

  moreLikeThis(userId: string, from: OutputRef, claim?: IdempotencyClaim) {
    return moreLikeThis(this.iterate, userId, from, claim);
  }

  retryStyle(userId: string, target: OutputRef, claim?: IdempotencyClaim) {
    return retryStyle(this.iterate, userId, target, claim);
  }

  waitForShots(name: JobName, jobId: string, generationId: string): Promise<ProcessedImageDto[]> {
    return this.waits.shots(name, jobId, generationId);
  }

  waitForSingleOutput(name: JobName, generationId: string): Promise<ProcessedImageDto> {
    return this.waits.singleOutput(name, generationId);
  }

  waitForStyleShot(
    jobId: string,
    generationId: string,
    styleIndex: number,
    styleName: string,
  ): Promise<ProcessedImageDto> {
    return this.waits.styleShot(jobId, generationId, styleIndex, styleName);
  }

  waitForRecommendations(generationId: string): Promise<StyleRecommendationsResponse['data']> {
    return this.waits.recommendations(generationId);
  }

  waitForEnhancedPrompt(jobId: string): Promise<string> {
    return this.waits.enhancedPrompt(jobId);
  }

  waitForOutline(jobId: string): Promise<void> {
    return this.waits.outline(jobId);
  }

  /** Where the caller's generation stands; outputs stored before renditions existed get theirs asked for. */
  async generation(userId: string, id: string, log: Log): Promise<GenerationDto> {
    const generation = await this.lookups.ownedGeneration(userId, id);
    const without = generation.styles.filter(
      (style) => style.status === 'complete' && style.result_key && !style.renditions,
    );
    await requestRenditions(
      this.deps.producer,
      log,
      without.map((style) => ({ key: style.result_key!, owner: { kind: 'style', id: style.id } })),
    );
    return generationDto(this.deps.store, generation);
  }

  /** A finished shot's stored file and the name it is saved under. */
  /** The caller's finished shot as Download saves it (its download copy, else itself) or its original. */
  async shotFile(
    userId: string,
    id: string,
    index: number,
    file: DownloadQuery['file'],
  ): Promise<{ key: string; fileName: string }> {
    const generation = await this.lookups.ownedGeneration(userId, id);
    const style = generation.styles.find(
      (slot) => slot.index === index && slot.status === 'complete' && slot.result_key,
    );
    if (!style?.result_key) throw new HttpError(404, 'This shot is not ready', 'shot_not_found');
    const key = file === 'original' ? style.result_key : (style.download_key ?? style.result_key);
    return { key, fileName: `generation-${generation.id}-${style.index + 1}${path.extname(key) || '.png'}` };
  }

  /** A page of the caller's outputs, newest first, within their plan's history. */
  async recentOutputs(userId: string, query: ListPageQuery, log: Log): Promise<GenerationListResponse> {
    const page = await this.repos.generations.outputsPage(userId, {
      limit: query.limit ?? RECENT_GENERATIONS_DEFAULT,
      after: decodeCursor(query.cursor),
    });
    const without = page.items.filter((output) => !output.renditions);
    await requestRenditions(
      this.deps.producer,
      log,
      without.map((output) => ({ key: output.resultKey, owner: { kind: 'style', id: output.id } })),
    );
    return {
      data: await Promise.all(page.items.map((output) => recentGenerationDto(this.deps.store, output))),
      nextCursor: encodeCursor(page.next),
      total: page.total,
    };
  }

  // What a batch starts each of its photos with, exactly as the single calls do.

  ownedImage(userId: string, ref: { imageId?: string | undefined }): Promise<ImageRow> {
    return this.lookups.ownedImage(userId, ref);
  }

  effectivePlan(userId: string): Promise<PlanId> {
    return this.lookups.effectivePlan(userId);
  }

  once(claim: IdempotencyClaim | undefined, kind: 'generation' | 'batch', start: () => Promise<string>) {
    return this.opener.once(claim, kind, start);
  }

  openBatch(input: {
    userId: string;
    choice: Record<string, unknown>;
    generations: OpenInput[];
    claim?: IdempotencyClaim | undefined;
  }): Promise<{ batchId: string; generations: GenerationRow[] }> {
    return this.opener.openBatch(input);
  }

  enqueueAll(jobs: QueuedJob[], claim?: IdempotencyClaim): Promise<void> {
    return this.opener.enqueueAll(jobs, claim);
  }
}
