import { randomUUID } from 'node:crypto';
import {
  IMAGES_PAGE_DEFAULT,
  outlineDto,
  shotSizeFor,
  subjectDto,
  tapsOf,
  TAP_TO_FIND_MESSAGE,
  type FocusInput,
  type ImageDto,
  type ImageListResponse,
  type ListPageQuery,
  type PlanId,
  type SubjectDto,
} from '@prodshot/contracts';
import type { IdempotencyClaim, ImageRow, Repositories } from '@prodshot/db';
import { jobIds, QUEUE_ORDER } from '@prodshot/queue';
import { deleteImageFiles } from '@prodshot/storage';
import { FreeAllowanceSpentError, type FreeAllowance } from '../billing/free-allowance.js';
import { HttpError } from '../http-error.js';
import { claimKey, oncePerKey } from '../idempotency.js';
import { imageNotFound } from './image-url.js';
import { imagingHttpError } from './imaging-errors.js';
import { decodeCursor, encodeCursor } from '../list-cursor.js';
import { requestRenditions } from '../rendition-requests.js';
import type { ServiceDeps } from '../services.js';
import {
  receiveUpload,
  storeUpload,
  toImageDto,
  UploadDecoder,
  UploadsBusyError,
  type ReceivedUpload,
} from './upload-intake.js';
import type { Log } from '../log.js';

/** The seller's uploads: storing one (once per Idempotency-Key), listing, reading and deleting them. Every id is looked up within the caller's images only. */
export class ImageService {
  private readonly repos: Pick<Repositories, 'images' | 'idempotencyKeys'>;
  private readonly decoder: UploadDecoder;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly plans: {
      effectivePlan(userId: string): Promise<PlanId>;
      waitForOutline(jobId: string): Promise<void>;
    },
    private readonly allowance: FreeAllowance,
  ) {
    this.repos = deps.repos;
    this.decoder = new UploadDecoder(deps.config.uploads, deps.config.shedding.retryAfterSeconds);
  }

  /**
   * Reads an upload's file under a decoder place (upload-intake's receiveUpload): a file that is
   * not an accepted image is the imaging error's status (415) before it waits, and an upload past
   * every place is 503 with Retry-After before its body is read.
   */
  async receive(file: AsyncIterable<Buffer>): Promise<ReceivedUpload> {
    try {
      return await receiveUpload(file, this.decoder);
    } catch (error) {
      if (error instanceof UploadsBusyError) {
        throw new HttpError(503, error.message, 'overloaded', {}, { 'Retry-After': String(error.retryAfterSeconds) });
      }
      throw imagingHttpError(error) ?? error;
    }
  }

  /**
   * Stores a received upload through the imaging hygiene and asks a worker to analyse it (an account
   * with nothing whose free analyses are spent keeps its upload unanalysed: its subject answers 402). A repeat
   * of the same upload under the same key answers the first one's image; a refused file is the
   * imaging error's status. The caller releases the upload's place once this settles.
   */
  async upload(
    userId: string,
    input: { file: ReceivedUpload; name: string },
    claim: IdempotencyClaim | undefined,
    log: Log,
  ): Promise<ImageDto> {
    let fresh: ImageRow | undefined;
    const imageId = await oncePerKey(this.repos.idempotencyKeys, claim, 'image', async () => {
      try {
        const plan = await this.plans.effectivePlan(userId);
        const shotSize = shotSizeFor(plan);
        const stored = { userId, bytes: input.file.bytes, name: input.name, shotSize };
        const row = await storeUpload(
          { store: this.deps.store, images: this.repos.images, decoder: this.decoder },
          stored,
        );
        // The same upload sent twice at once: the copy that lost the key is dropped, the first one answered.
        await claimKey(this.repos.idempotencyKeys, claim, { imageId: row.id }).catch(async (error: unknown) => {
          await this.deleteUpload(row);
          throw error;
        });
        await this.analyse(row, plan).catch((error: unknown) => analysisNotQueued(error, row, log));
        fresh = row;
        return row.id;
      } catch (error) {
        throw imagingHttpError(error) ?? error;
      }
    });
    // A replay reads back the upload its key's first request stored; a fresh one answers as stored.
    return this.dto(fresh ?? (await this.owned(userId, imageId)));
  }

  /** A page of the caller's uploads; an upload still waiting for its analysis gets its renditions there. */
  async list(userId: string, query: ListPageQuery, log: Log): Promise<ImageListResponse> {
    const page = await this.repos.images.listPage(userId, {
      limit: query.limit ?? IMAGES_PAGE_DEFAULT,
      after: decodeCursor(query.cursor),
    });
    const without = page.items.filter((row) => !row.renditions && row.subject !== null);
    await requestRenditions(
      this.deps.producer,
      log,
      without.map((row) => ({ key: row.storage_key, owner: { kind: 'image', id: row.id } })),
    );
    return {
      data: await Promise.all(page.items.map((row) => this.dto(row))),
      nextCursor: encodeCursor(page.next),
      total: page.total,
    };
  }

  async image(userId: string, id: string): Promise<ImageDto> {
    return this.dto(await this.owned(userId, id));
  }

  /**
   * What the cutout model found; an upload nobody has looked at yet (older than analysis on upload,
   * or stored when its account's free analyses were spent) is queued now, or answers that 402.
   */
  async subject(userId: string, id: string): Promise<SubjectDto> {
    const row = await this.owned(userId, id);
    if (!row.subject) await this.analyse(row, await this.plans.effectivePlan(userId));
    return this.subjectOf(row);
  }

  /**
   * The outline again, for the seller's taps (none: the engine's own pick), made by a worker while
   * the call waits; free, like the analysis. The new outline is unconfirmed, but taps are the
   * seller's own choice: generations from the upload use them. On a refused upload only a keep tap
   * is taken, and only where the engine saw no product in a photo it could read: a tap that finds
   * one overturns the refusal.
   */
  async remakeOutline(userId: string, id: string, focus: FocusInput | undefined): Promise<SubjectDto> {
    const row = await this.owned(userId, id);
    const taps = tapsOf(focus);
    if (!row.subject) throw outlineNotReady();
    if (!row.subject.found && !(row.subject.tapMayFind && taps?.some((tap) => tap.keep)))
      throw refusedUpload(row.subject);
    const jobId = jobIds.outline(randomUUID());
    const job = { userId, imageId: row.id, sourceKey: row.storage_key, focus: taps };
    await this.deps.producer.enqueue('make-outline', job, { jobId, attempts: 2, ...QUEUE_ORDER.standard });
    await this.plans.waitForOutline(jobId);
    return this.subjectOf(await this.owned(userId, id));
  }

  /** The seller's "Yes, that's my product": the outline they see is the one generations use. */
  async confirmOutline(userId: string, id: string): Promise<SubjectDto> {
    await this.owned(userId, id);
    const row = await this.repos.images.confirmOutline(userId, id);
    if (!row) throw outlineNotReady();
    return this.subjectOf(row);
  }

  /** Its generations stay in history (docs/decisions.md); only the upload's own files go. */
  async delete(userId: string, id: string): Promise<{ id: string; deleted: true }> {
    const row = await this.owned(userId, id);
    await this.deleteUpload(row);
    return { id: row.id, deleted: true };
  }

  /** Names the upload's product (null clears it); another user's image is not found. */
  async setTitle(userId: string, id: string, title: string | null): Promise<ImageDto> {
    const row = await this.repos.images.setProductTitle(userId, id, title);
    if (!row) throw imageNotFound();
    return this.dto(row);
  }

  async owned(userId: string, id: string): Promise<ImageRow> {
    const row = await this.repos.images.findOwned(userId, id);
    if (!row) throw imageNotFound();
    return row;
  }

  private async subjectOf(row: ImageRow): Promise<SubjectDto> {
    const outline = row.outline ? outlineDto(row.outline, await this.deps.store.signedUrl(row.outline.key)) : null;
    return subjectDto(row.id, row.subject, row.coach, outline);
  }

  private dto(row: ImageRow): Promise<ImageDto> {
    return toImageDto(this.deps.store, row);
  }

  /** Asks a worker to find the upload's product (and make its cutout); once per upload, and once against a free allowance. */
  private async analyse(row: ImageRow, plan: PlanId): Promise<string> {
    const order = await this.allowance.place(row.user_id, plan, { work: 'analysis', id: row.id }, QUEUE_ORDER.standard);
    const job = { userId: row.user_id, imageId: row.id, sourceKey: row.storage_key, shotSize: shotSizeFor(plan) };
    return this.deps.producer.enqueue('analyse-upload', job, { jobId: jobIds.analyseUpload(row.id), ...order });
  }

  private async deleteUpload(row: ImageRow): Promise<void> {
    await this.repos.images.deleteOwned(row.user_id, row.id);
    await deleteImageFiles(this.deps.store, row.storage_key);
  }
}

function outlineNotReady(): HttpError {
  return new HttpError(
    409,
    'Your product is still being found in this photo: try again in a moment',
    'outline_not_ready',
  );
}

/** A refused upload has no outline to make again, unless the seller's keep tap shows where the product is. */
function refusedUpload(refusal: { error: string; tapMayFind?: boolean | undefined }): HttpError {
  const message = refusal.tapMayFind ? `${refusal.error} ${TAP_TO_FIND_MESSAGE}` : refusal.error;
  return new HttpError(422, message, 'no_product');
}

/** The upload stands either way: spent free analyses are the account's state, anything else a fault GET /subject retries. */
function analysisNotQueued(error: unknown, row: ImageRow, log: Log): void {
  if (error instanceof FreeAllowanceSpentError)
    log.info({ imageId: row.id }, 'upload stored unanalysed: the free analyses of the day are spent');
  else log.warn({ err: error, imageId: row.id }, 'upload analysis not queued; GET /subject will queue it');
}
