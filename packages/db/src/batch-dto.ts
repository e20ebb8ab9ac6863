import type { BatchChoice, BatchDto, BatchItemDto, DownloadQuery, RunStatus } from '@prodshot/contracts';
import { archiveSize, signImage, type ArchiveEntry, type ObjectStore } from '@prodshot/storage';
import { namedProduct, slug } from './download-names.js';
import { slotUrls } from './generation-dto.js';
import type { BatchGeneration, BatchWithGenerations } from './repositories/batches-repository.js';

/**
 * A batch as `GET /api/batches/:id` serves it and `batch.completed` sends it: every item's outputs
 * with URLs signed afresh, the zip's sizes, and `archiveUrl`, the signed link to the zip (null until
 * an output is finished).
 */
export async function batchDto(store: ObjectStore, batch: BatchWithGenerations, archiveUrl: string): Promise<BatchDto> {
  const items = await Promise.all(batch.generations.map((generation) => itemDto(store, generation)));
  const zipped = items.some((item) => item.outputs.some((output) => output.url));
  const [archiveBytes, originalArchiveBytes] = zipped
    ? await Promise.all([zipSize(archiveEntries(batch)), zipSize(archiveEntries(batch, 'original'))])
    : [null, null];
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

/** Every item settled: complete if any output came out, else failed; otherwise the earliest state any item is in. */
function batchStatus(statuses: RunStatus[]): RunStatus {
  if (statuses.every((status) => status === 'complete' || status === 'failed'))
    return statuses.includes('complete') ? 'complete' : 'failed';
  return statuses.some((status) => status === 'running' || status === 'complete' || status === 'failed')
    ? 'running'
    : 'queued';
}

async function itemDto(store: ObjectStore, generation: BatchGeneration): Promise<BatchItemDto> {
  const outputs = await Promise.all(
    generation.styles.map(async (style) => {
      const urls = await slotUrls(store, style);
      return {
        index: style.index,
        name: style.name,
        status: style.status,
        progress: style.progress,
        ...urls,
        error: style.error,
      };
    }),
  );
  return {
    position: generation.batch_position ?? 0,
    generationId: generation.id,
    imageId: generation.image_id,
    thumbnailUrl: generation.image
      ? (await signImage(store, generation.image.storage_key, generation.image.renditions)).thumbnailUrl
      : null,
    productTitle: productName(generation),
    status: generation.status,
    stage: generation.stage,
    error: generation.error,
    outputs,
  };
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
export function archiveEntries(
  batch: BatchWithGenerations,
  file?: DownloadQuery['file'],
): (ArchiveEntry & { bytes: number | null })[] {
  const seen = new Map<string, number>();
  return batch.generations.flatMap((generation) =>
    generation.styles
      .filter((style) => style.status === 'complete' && style.result_key)
      .map((style) => {
        const stem = `${slug(productName(generation)) || 'product'}-${slug(style.name) || 'style'}`;
        const n = (seen.get(stem) ?? 0) + 1;
        seen.set(stem, n);
        const copy =
          file !== 'original' && style.download_key
            ? { key: style.download_key, bytes: style.download_bytes }
            : { key: style.result_key!, bytes: style.result_bytes };
        return { ...copy, baseName: `${stem}-${n}` };
      }),
  );
}

/** The zip's size, or null when an entry's size is not known. */
function zipSize(entries: (ArchiveEntry & { bytes: number | null })[]): Promise<number | null> | null {
  return entries.every((entry) => entry.bytes !== null)
    ? archiveSize(entries as (ArchiveEntry & { bytes: number })[])
    : null;
}
