import { batchCost, type BatchChoice, type BatchDto, type BatchItemDto, type CreateBatchRequest, type DownloadQuery, type PlanId, type RunStatus } from '@prodshot/contracts';
import type { BatchesRepository, BatchGeneration, BatchWithGenerations, IdempotencyClaim, ImageRow } from '@prodshot/db';
import { QUEUE_ORDER } from '@prodshot/queue';
import { signImage } from '@prodshot/storage';
import type { Readable } from 'node:stream';
import { archiveLink, ArchiveLinkSecret, checkArchiveLink } from './archive-links.js';
import { archiveSize, streamArchive, type ArchiveEntry } from './batch-archive.js';
import { namedProduct, slug } from './download-names.js';
import { slotUrls } from './generation-dtos.js';
import type { GenerationService } from './generation-service.js';
import { productShotStart, queuedJob, smartStart, type GenerationStart } from './generation-starts.js';
import { HttpError } from './http-error.js';
import { refuseUnsupported } from './product-gate.js';
import type { ServiceDeps } from './services.js';

export function batchNotFound(): HttpError {
  return new HttpError(404, 'Batch not found', 'batch_not_found');
}

/** Every item settled: complete if any output came out, else failed; otherwise the earliest state any item is in. */
function batchStatus(statuses: RunStatus[]): RunStatus {
  if (statuses.every((status) => status === 'complete' || status === 'failed')) return statuses.includes('complete') ? 'complete' : 'failed';
  return statuses.some((status) => status === 'running' || status === 'complete' || status === 'failed') ? 'running' : 'queued';
}

/**
 * A batch: the caller's uploads, one choice for all, one reservation for the lot. Each photo is
 * started exactly as the single calls start it (generation-starts.ts), at the batch tier of the
 * queue, so one seller's 20 photos wait behind every seller's single shots.
 */
export class BatchService {
  private readonly batches: BatchesRepository;

  private readonly linkSecret: ArchiveLinkSecret;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly generations: GenerationService,
  ) {
    this.batches = deps.repos.batches;
    this.linkSecret = new ArchiveLinkSecret(deps.redis);
  }

  /**
   * Starts the batch once per Idempotency-Key; a repeat answers the first one's batch and charges
   * nothing. A photo its upload analysis read as an unsupported kind refuses the batch (422) first. A photo Redis refuses fails the whole batch, refunded, and frees the key (enqueueAll).
   */
  async create(userId: string, body: CreateBatchRequest, claim: IdempotencyClaim | undefined): Promise<{ batchId: string; credits: number }> {
    const credits = batchCost(body.choice, body.items.length);
    const { id: batchId } = await this.generations.once(claim, 'batch', async () => {
      const [images, plan] = await Promise.all([
        Promise.all(body.items.map((item) => this.generations.ownedImage(userId, { imageId: item.imageId }))),
        this.generations.effectivePlan(userId),
      ]);
      refuseUnsupported(images);
      const starts = body.items.map((item, index) => startFor(userId, images[index]!, plan, body.choice, item.productTitle));
      const opened = await this.generations.openBatch({ userId, choice: body.choice, generations: starts.map((start) => start.open), claim });
      await this.generations.enqueueAll(
        opened.generations.map((generation, index) => queuedJob(starts[index]!, generation.id)),
        claim,
      );
      return opened.batchId;
    });
    return { batchId, credits };
  }

  async owned(userId: string, batchId: string): Promise<BatchWithGenerations> {
    const batch = await this.batches.findOwned(userId, batchId);
    if (!batch) throw batchNotFound();
    return batch;
  }

  /** The caller's batch with a fresh link to its zip. */
  async ownedDto(userId: string, batchId: string): Promise<BatchDto> {
    const batch = await this.owned(userId, batchId);
    return this.toDto(batch, archiveLink(await this.linkSecret.get(), batch.id));
  }

  /** The batch a valid signed link names, whoever asks (the link is the proof); 403 for an expired or forged link. */
  async linked(batchId: string, expires: number | undefined, signature: string): Promise<BatchWithGenerations> {
    const verdict = checkArchiveLink(await this.linkSecret.get(), batchId, expires ?? Number.NaN, signature);
    if (verdict === 'expired') throw new HttpError(403, 'This download link has expired: open the batch again for a fresh one', 'link_expired');
    if (verdict === 'invalid') throw new HttpError(403, 'Invalid download link', 'invalid_signature');
    const batch = await this.batches.find(batchId);
    if (!batch) throw batchNotFound();
    return batch;
  }

  /** The batch with every item's outputs; their URLs are signed afresh on each read. */
  private async toDto(batch: BatchWithGenerations, archiveUrl: string | null): Promise<BatchDto> {
    const items = await Promise.all(batch.generations.map((generation) => this.itemDto(generation)));
    const zipped = items.some((item) => item.outputs.some((output) => output.url));
    const [archiveBytes, originalArchiveBytes] = zipped ? await Promise.all([zipSize(archiveEntries(batch)), zipSize(archiveEntries(batch, 'original'))]) : [null, null];
    return {
      id: batch.id,
      choice: batch.choice as BatchChoice,
      credits: batch.credits,
      status: batchStatus(items.map((item) => item.status)),
      createdAt: batch.created_at.toISOString(),
      items,
      archiveUrl: zipped ? archiveUrl : null,
      archiveBytes,
      originalArchiveBytes,
    };
  }

  private async itemDto(generation: BatchGeneration): Promise<BatchItemDto> {
    const outputs = await Promise.all(
      generation.styles.map(async (style) => {
        const urls = await slotUrls(this.deps.store, style);
        return { index: style.index, name: style.name, status: style.status, progress: style.progress, ...urls, error: style.error };
      }),
    );
    return {
      position: generation.batch_position ?? 0,
      generationId: generation.id,
      imageId: generation.image_id,
      thumbnailUrl: generation.image ? (await signImage(this.deps.store, generation.image.storage_key, generation.image.renditions)).thumbnailUrl : null,
      productTitle: productName(generation),
      status: generation.status,
      stage: generation.stage,
      error: generation.error,
      outputs,
    };
  }

  /** Every finished output of the batch (as Download saves each, or the originals), streamed as one zip; 409 until one is finished. */
  archive(batch: BatchWithGenerations, file: DownloadQuery['file']): Readable {
    const entries = archiveEntries(batch, file);
    if (entries.length === 0) throw new HttpError(409, 'No shot of this batch is finished yet', 'batch_not_ready');
    return streamArchive(this.deps.store, entries);
  }
}

/**
 * What names a batch's product: the seller's title, else the analysed name, else the name of the
 * file they uploaded (so an untitled batch of IMG_2041.jpg and IMG_2042.jpg zips as img-2041-…,
 * not product-…), else 'product' once the upload is gone.
 */
function productName(generation: BatchGeneration): string {
  const fileName = generation.image?.name.replace(/\.[a-z0-9]+$/i, '').trim();
  return namedProduct(generation) ?? (fileName || 'product');
}

/**
 * Every finished output with its size, named `{product}-{style}-{n}` (n counts the product's
 * outputs of that style from 1): the file Download saves (its download copy, else itself), or
 * the original. A size is null for an output stored before sizes were recorded.
 */
function archiveEntries(batch: BatchWithGenerations, file?: DownloadQuery['file']): (ArchiveEntry & { bytes: number | null })[] {
  const seen = new Map<string, number>();
  return batch.generations.flatMap((generation) =>
    generation.styles
      .filter((style) => style.status === 'complete' && style.result_key)
      .map((style) => {
        const stem = `${slug(productName(generation)) || 'product'}-${slug(style.name) || 'style'}`;
        const n = (seen.get(stem) ?? 0) + 1;
        seen.set(stem, n);
        const copy = file !== 'original' && style.download_key ? { key: style.download_key, bytes: style.download_bytes } : { key: style.result_key!, bytes: style.result_bytes };
        return { ...copy, baseName: `${stem}-${n}` };
      }),
  );
}

/** The zip's size, or null when an entry's size is not known. */
function zipSize(entries: (ArchiveEntry & { bytes: number | null })[]): Promise<number | null> | null {
  return entries.every((entry) => entry.bytes !== null) ? archiveSize(entries as (ArchiveEntry & { bytes: number })[]) : null;
}

/** One photo's start under the batch's choice; its title (sent, else the upload's) rides along as a hint and a name. */
function startFor(userId: string, image: ImageRow, plan: PlanId, choice: BatchChoice, productTitle: string | undefined): GenerationStart {
  const common = { userId, image, plan, order: QUEUE_ORDER.batch, hints: { productTitle } };
  if (choice.mode === 'smart') return smartStart({ ...common, flow: { mode: 'fan-out', styleCount: choice.styleCount } });
  if (choice.mode === 'template') return productShotStart({ ...common, backgroundType: choice.backgroundType, count: choice.count });
  return productShotStart({ ...common, prompt: choice.prompt.trim(), count: choice.count });
}
