import {
  batchCost,
  type BatchChoice,
  type BatchDto,
  type CreateBatchRequest,
  type DownloadQuery,
  type PlanId,
} from '@prodshot/contracts';
import {
  archiveEntries,
  batchDto,
  type BatchesRepository,
  type BatchWithGenerations,
  type IdempotencyClaim,
  type ImageRow,
} from '@prodshot/db';
import { QUEUE_ORDER } from '@prodshot/queue';
import {
  archiveLink,
  checkArchiveLink,
  streamArchive,
  type ArchiveLinkSecret,
  type ObjectStore,
} from '@prodshot/storage';
import type { Readable } from 'node:stream';
import { HttpError } from '../http-error.js';
import type { GenerationLookups } from '../generations/generation-lookups.js';
import { queuedJob, type GenerationStart, type PaidWork } from '../generations/paid-work.js';
import { refuseUnsupported } from '../generations/product-gate.js';
import { productShotStart, smartStart } from '../generations/shots-service.js';

export interface BatchDeps {
  batches: BatchesRepository;
  store: ObjectStore;
  archiveLinkSecret: ArchiveLinkSecret;
  paidWork: PaidWork;
  lookups: GenerationLookups;
}

export function batchNotFound(): HttpError {
  return new HttpError(404, 'Batch not found', 'batch_not_found');
}

/**
 * A batch: the caller's uploads, one choice for all, one reservation for the lot. Each photo is
 * started exactly as the single calls start it (shots-service.ts's builders), at the batch tier of
 * the queue, so one seller's 20 photos wait behind every seller's single shots.
 */
export class BatchService {
  constructor(private readonly deps: BatchDeps) {}

  /**
   * Starts the batch once per Idempotency-Key; a repeat answers the first one's batch and charges
   * nothing. A photo its upload analysis read as an unsupported kind refuses the batch (422) first. A photo Redis refuses fails the whole batch, refunded, and frees the key (enqueueAll).
   */
  async create(
    userId: string,
    body: CreateBatchRequest,
    claim: IdempotencyClaim | undefined,
  ): Promise<{ batchId: string; credits: number }> {
    const credits = batchCost(body.choice, body.items.length);
    const { paidWork, lookups } = this.deps;
    const batchId = await paidWork.once(claim, 'batch', async () => {
      const [images, plan] = await Promise.all([
        Promise.all(body.items.map((item) => lookups.ownedImage(userId, { imageId: item.imageId }))),
        lookups.effectivePlan(userId),
      ]);
      refuseUnsupported(images);
      const starts = body.items.map((item, index) =>
        startFor(userId, images[index]!, plan, body.choice, item.productTitle),
      );
      const opened = await paidWork.openBatch({
        userId,
        choice: body.choice,
        generations: starts.map((start) => start.open),
        claim,
      });
      await paidWork.enqueueAll(
        opened.generations.map((generation, index) => queuedJob(starts[index]!, generation.id)),
        claim,
      );
      return opened.batchId;
    });
    return { batchId, credits };
  }

  async owned(userId: string, batchId: string): Promise<BatchWithGenerations> {
    const batch = await this.deps.batches.findOwned(userId, batchId);
    if (!batch) throw batchNotFound();
    return batch;
  }

  /** The caller's batch with a fresh link to its zip. */
  async ownedDto(userId: string, batchId: string): Promise<BatchDto> {
    const batch = await this.owned(userId, batchId);
    return batchDto(this.deps.store, batch, archiveLink(await this.deps.archiveLinkSecret.get(), batch.id));
  }

  /** The batch a valid signed link names, whoever asks (the link is the proof); 403 for an expired or forged link. */
  async linked(batchId: string, expires: string | undefined, signature: string): Promise<BatchWithGenerations> {
    const verdict = checkArchiveLink(await this.deps.archiveLinkSecret.get(), batchId, Number(expires), signature);
    if (verdict === 'expired')
      throw new HttpError(403, 'This download link has expired: open the batch again for a fresh one', 'link_expired');
    if (verdict === 'invalid') throw new HttpError(403, 'Invalid download link', 'invalid_signature');
    const batch = await this.deps.batches.find(batchId);
    if (!batch) throw batchNotFound();
    return batch;
  }

  /** Every finished output of the batch (as Download saves each, or the originals), streamed as one zip; 409 until one is finished. */
  archive(batch: BatchWithGenerations, file: DownloadQuery['file']): Readable {
    const entries = archiveEntries(batch, file);
    if (entries.length === 0) throw new HttpError(409, 'No shot of this batch is finished yet', 'batch_not_ready');
    return streamArchive(this.deps.store, entries);
  }
}

/** One photo's start under the batch's choice; its title (sent, else the upload's) rides along as a hint and a name. */
function startFor(
  userId: string,
  image: ImageRow,
  plan: PlanId,
  choice: BatchChoice,
  productTitle: string | undefined,
): GenerationStart {
  const common = { userId, image, plan, order: QUEUE_ORDER.batch, hints: { productTitle } };
  if (choice.mode === 'smart')
    return smartStart({ ...common, flow: { mode: 'fan-out', styleCount: choice.styleCount } });
  if (choice.mode === 'template')
    return productShotStart({ ...common, backgroundType: choice.backgroundType, count: choice.count });
  return productShotStart({ ...common, prompt: choice.prompt.trim(), count: choice.count });
}
