import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import type { ImageDto } from '@prodshot/contracts';
import type { ImageRow, ImagesRepository } from '@prodshot/db';
import { normaliseInput } from '@prodshot/imaging';
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

/**
 * Decoding a 10 MB upload can take a few hundred MB; more decodes at once than cores only adds
 * memory, not speed, so uploads wait their turn here.
 */
const decodeSlots = pLimit(availableParallelism());

/**
 * Re-encodes an upload through the imaging hygiene (type by content, pixel cap, first frame,
 * metadata stripped), stores it, then records it. Nothing is stored for a refused file.
 */
export async function storeUpload(
  deps: { store: ObjectStore; images: ImagesRepository },
  input: { userId: string; bytes: Buffer; name: string },
): Promise<ImageRow> {
  const clean = await decodeSlots(() => normaliseInput(input.bytes));
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
    createdAt: row.created_at.toISOString(),
    originalImage: await signImage(store, row.storage_key, row.renditions),
  };
}
