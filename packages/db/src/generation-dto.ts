import type {
  GenerationDto,
  OutputRef,
  ProductInfo,
  ShotFile,
  ShotFiles,
  SmartStage,
  StyleSlotDto,
} from '@prodshot/contracts';
import { contentTypeForKey, signImage, type ObjectStore } from '@prodshot/storage';
import type { GenerationWithStyles } from './repositories/generations-repository.js';
import type { GenerationStyleRow } from './schema.js';

// Here, not in the API: the worker sends this same DTO in webhook events.

/** A generation as `GET /api/generations/:id` answers it; output URLs are signed afresh on each read. */
export async function generationDto(store: ObjectStore, generation: GenerationWithStyles): Promise<GenerationDto> {
  const recorded = generation.product_info as (Record<string, unknown> & { unsupportedProduct?: boolean }) | null;
  const styles = await Promise.all(
    generation.styles.map(async (style) => ({
      index: style.index,
      name: style.name,
      prompt: style.prompt,
      status: style.status,
      progress: style.progress,
      ...(await slotUrls(store, style)),
      error: style.error,
      backgroundType: style.background_type,
      seed: style.seed,
      files:
        style.status === 'complete' && style.result_key ? shotFiles({ ...style, result_key: style.result_key }) : null,
    })),
  );
  return {
    id: generation.id,
    kind: generation.kind,
    status: generation.status,
    stage: (generation.stage as SmartStage | null) ?? null,
    imageId: generation.image_id,
    productInfo: recorded ? productInfo(recorded) : null,
    error: generation.error,
    unsupportedProduct: recorded?.unsupportedProduct === true,
    styles,
    createdAt: generation.created_at.toISOString(),
    origin: originOf(generation.request),
  };
}

/** The analysis's product info as the row holds it (JSON the worker wrote), every field a string. */
function productInfo(recorded: Record<string, unknown>): ProductInfo {
  const field = (name: keyof ProductInfo) => String(recorded[name] ?? '');
  return {
    productTitle: field('productTitle'),
    productDescription: field('productDescription'),
    productType: field('productType'),
  };
}

/** A slot's signed output URLs; all null until it completed with a stored output. */
export async function slotUrls(
  store: ObjectStore,
  style: Pick<GenerationStyleRow, 'status' | 'result_key' | 'renditions'>,
): Promise<Pick<StyleSlotDto, 'url' | 'thumbnailUrl' | 'previewUrl'>> {
  if (!style.result_key || style.status !== 'complete') return { url: null, thumbnailUrl: null, previewUrl: null };
  return signImage(store, style.result_key, style.renditions);
}

type RecordedFiles = Pick<GenerationStyleRow, 'result_bytes' | 'download_key' | 'download_bytes'> & {
  result_key: string;
};

/** What Download saves and the original beside it, as the slot recorded them (no storage round trip). */
export function shotFiles(style: RecordedFiles): ShotFiles {
  const original: ShotFile = { contentType: shotContentType(style.result_key), bytes: style.result_bytes };
  if (!style.download_key) return { download: original, original: null };
  return { download: { contentType: shotContentType(style.download_key), bytes: style.download_bytes }, original };
}

/** Our keys end in the extension of what they hold (storage keys.ts). */
function shotContentType(key: string): ShotFile['contentType'] {
  const type = contentTypeForKey(key);
  return type === 'image/jpeg' || type === 'image/webp' ? type : 'image/png';
}

/** Where a More like this came from, as its request recorded it. */
function originOf(request: unknown): OutputRef | null {
  const from = (request as { from?: Partial<OutputRef> } | null)?.from;
  return typeof from?.generationId === 'string' && typeof from.index === 'number'
    ? { generationId: from.generationId, index: from.index }
    : null;
}
