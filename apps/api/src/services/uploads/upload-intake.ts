import { createHash, randomUUID } from 'node:crypto';
import pLimit, { type LimitFunction } from 'p-limit';
import type { Config } from '@prodshot/config';
import type { CoachWarning, ImageDto } from '@prodshot/contracts';
import type { ImageRow, ImagesRepository } from '@prodshot/db';
import { guessKind, measurePhoto, pixelWarnings } from '@prodshot/imaging/coach';
import { normaliseInput, screenInput, type NormalisedImage } from '@prodshot/imaging/input';
import { signImage, uploadKey, type ObjectStore } from '@prodshot/storage';

// An upload's bytes from the request to a stored image row: read under a decoder place, re-encoded,
// coached, stored. ImageService wraps these with the Idempotency-Key and the HTTP errors.

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
 * How much of a file's start its magic bytes are screened from before it takes a place:
 * file-type's own sample size. The whole file is screened again by the decode.
 */
const SCREEN_BYTES = 4_100;

/**
 * Upload decodes take turns. One can hold a few hundred MB, and more decodes than the pod's CPU
 * share only add memory, not speed: UPLOAD_DECODE_CONCURRENCY run, UPLOAD_DECODE_QUEUE wait. An
 * upload takes its place (running or waiting) as its file begins to arrive, before its body is
 * read, and holds it until the upload is answered, so at most that many bodies are in memory at
 * once; past both, an upload is refused before its body is read. A file that is not an accepted
 * image is refused by its magic bytes before it takes a place.
 */
export class UploadDecoder {
  private readonly slots: LimitFunction;
  private readonly capacity: number;
  private held = 0;

  constructor(
    bounds: Config['uploads'],
    private readonly retryAfterSeconds: number,
  ) {
    this.slots = pLimit(bounds.decodeConcurrency);
    this.capacity = bounds.decodeConcurrency + bounds.decodeQueue;
  }

  /** One place for an upload, or UploadsBusyError when every place is held. The release is idempotent: every path may call it. */
  take(): () => void {
    if (this.held >= this.capacity) throw new UploadsBusyError(this.retryAfterSeconds);
    this.held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= 1;
    };
  }

  /** Decodes in its turn; the upload already holds a place (`take`), so the wait is bounded. */
  decode(bytes: Buffer): Promise<NormalisedImage> {
    return this.slots(() => normaliseInput(bytes));
  }

  /**
   * The photo coach's pixel checks, read from the clean image just encoded (a JPEG is read shrunk
   * as it decodes: a few milliseconds), in the same decode slots.
   */
  coach(clean: NormalisedImage, shotSize: number, name: string): Promise<CoachWarning[]> {
    return this.slots(async () =>
      pixelWarnings(await measurePhoto(clean.buffer), shotSize, guessKind({ title: name }).kind),
    );
  }
}

/** An upload's file, read whole while it holds a decoder place; `release` gives the place back (call it on every path). */
export interface ReceivedUpload {
  bytes: Buffer;
  /** Of the whole file, hashed as it arrived: the Idempotency-Key's fingerprint. */
  sha256: string;
  release: () => void;
}

/**
 * Reads an upload's file as it arrives: its first chunks (4 kB or more; a socket read is 64 kB at
 * most) are screened (a file that is not an accepted image throws ImagingError before it waits),
 * then it takes a decoder place (or throws UploadsBusyError, nothing read past those chunks), and
 * only then is the rest read into memory. The decode needs the whole file (sharp collects a
 * stream into one Buffer anyway, and reads it three times: header, alpha, encode), so the body is
 * buffered, but only under a place. An empty file takes no place. A failing stream (too large,
 * client gone) gives the place back.
 */
export async function receiveUpload(file: AsyncIterable<Buffer>, decoder: UploadDecoder): Promise<ReceivedUpload> {
  const chunks: Buffer[] = [];
  const hash = createHash('sha256');
  let length = 0;
  let release: (() => void) | undefined;
  try {
    for await (const chunk of file) {
      chunks.push(chunk);
      hash.update(chunk);
      length += chunk.length;
      if (!release && length >= SCREEN_BYTES) release = await screenAndTake(Buffer.concat(chunks), decoder);
    }
    if (!release && length > 0) release = await screenAndTake(Buffer.concat(chunks), decoder);
  } catch (error) {
    release?.();
    throw error;
  }
  return { bytes: Buffer.concat(chunks, length), sha256: hash.digest('hex'), release: release ?? (() => {}) };
}

async function screenAndTake(head: Buffer, decoder: UploadDecoder): Promise<() => void> {
  await screenInput(head);
  return decoder.take();
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
