import { randomUUID } from 'node:crypto';
import pLimit, { type LimitFunction } from 'p-limit';
import type { Config } from '@prodshot/config';
import type { CoachWarning, ImageDto } from '@prodshot/contracts';
import type { ImageRow, ImagesRepository } from '@prodshot/db';
import { guessKind, measurePhoto, pixelWarnings } from '@prodshot/imaging/coach';
import { normaliseInput, screenInput, type NormalisedImage } from '@prodshot/imaging/input';
import { signImage, uploadKey, type ObjectStore } from '@prodshot/storage';

/** Display names come from users: keep printable text only, bounded, never a path. */
export function cleanName(raw: string | undefined, fallback: string): string {
  const cleaned = (raw ?? '')
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/[\\/]/g, '-')
    .trim()
    .slice(0, 200);
  return cleaned || fallback;
}

/** Every decode slot busy and the queue full: the upload is refused whole, to be sent again later. */
export class UploadsBusyError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`The service is busy. Please try again in ${retryAfterSeconds} seconds.`);
    this.name = 'UploadsBusyError';
  }
}

/**
 * Upload decodes take turns. One can hold a few hundred MB, and more decodes than the pod's CPU
 * share only add memory, not speed: UPLOAD_DECODE_CONCURRENCY run, UPLOAD_DECODE_QUEUE wait, and
 * an upload past both is refused before it waits, so a burst costs at most the queue's bodies.
 * A file that is not an accepted image is refused by its magic bytes before it takes a place.
 */
export class UploadDecoder {
  private readonly slots: LimitFunction;
  private readonly capacity: number;

  constructor(
    bounds: Config['uploads'],
    private readonly retryAfterSeconds: number,
  ) {
    this.slots = pLimit(bounds.decodeConcurrency);
    this.capacity = bounds.decodeConcurrency + bounds.decodeQueue;
  }

  async decode(bytes: Buffer): Promise<NormalisedImage> {
    await screenInput(bytes);
    if (this.slots.activeCount + this.slots.pendingCount >= this.capacity) throw new UploadsBusyError(this.retryAfterSeconds);
    return this.slots(() => normaliseInput(bytes));
  }

  /**
   * The photo coach's pixel checks, read from the clean image just encoded (a JPEG is read shrunk
   * as it decodes: a few milliseconds), in the same decode slots.
   */
  coach(clean: NormalisedImage, shotSize: number, name: string): Promise<CoachWarning[]> {
    return this.slots(async () => pixelWarnings(await measurePhoto(clean.buffer), shotSize, guessKind({ title: name }).kind));
  }
}

/**
 * Re-encodes an upload through the imaging hygiene (type by content, pixel cap, first frame,
 * metadata stripped), stores it, then records it. Nothing is stored for a refused file.
 */
export async function storeUpload(
  deps: { store: ObjectStore; images: ImagesRepository; decoder: UploadDecoder },
  input: { userId: string; bytes: Buffer; name: string; shotSize: number },
): Promise<ImageRow> {
  const clean = await deps.decoder.decode(input.bytes);
  const coach = await deps.decoder.coach(clean, input.shotSize, input.name);
  const fileId = randomUUID().replaceAll('-', '');
  const key = uploadKey(input.userId, fileId, clean.mimeType);
  await deps.store.put(key, clean.buffer, clean.mimeType);
  try {
    return await deps.images.create({
      user_id: input.userId,
      file_id: fileId,
      name: input.name,
      storage_key: key,
      content_type: clean.mimeType,
      width: clean.width,
      height: clean.height,
      bytes: clean.buffer.length,
      coach: JSON.stringify(coach),
    });
  } catch (error) {
    await deps.store.delete(key);
    throw error;
  }
}

export async function toImageDto(store: ObjectStore, row: ImageRow): Promise<ImageDto> {
  return {
    _id: row.id,
    fileId: row.file_id,
    name: row.name,
    productTitle: row.product_title,
    createdAt: row.created_at.toISOString(),
    originalImage: await signImage(store, row.storage_key, row.renditions),
    coach: row.coach,
  };
}
