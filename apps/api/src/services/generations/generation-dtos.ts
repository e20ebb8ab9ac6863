import type { GenerationListItem, ProcessedImageDto } from '@prodshot/contracts';
import { shotFiles, type GenerationStyleRow, type GenerationWithStyles, type RecentOutput } from '@prodshot/db';
import { signImage, type ObjectStore } from '@prodshot/storage';

/** One output of the seller's recent generations list. */
export async function recentGenerationDto(store: ObjectStore, output: RecentOutput): Promise<GenerationListItem> {
  const { url, ...renditions } = await signImage(store, output.resultKey, output.renditions);
  return {
    id: output.id,
    generationId: output.generationId,
    index: output.index,
    name: output.name,
    imageUrl: url,
    ...renditions,
    files: shotFiles({ ...output.files, result_key: output.resultKey }),
    createdAt: output.createdAt.toISOString(),
  };
}

/** The spec's processedImages: one per completed slot. */
export async function processedImages(
  store: ObjectStore,
  generation: GenerationWithStyles,
): Promise<ProcessedImageDto[]> {
  const done = generation.styles.filter((s) => s.status === 'complete' && s.result_key);
  return Promise.all(done.map((style) => processedImage(store, style, style.background_type ?? style.name)));
}

/** One finished slot as a processed image, labelled with the background it was asked for. */
export async function processedImage(
  store: ObjectStore,
  style: GenerationStyleRow,
  backgroundType: string,
): Promise<ProcessedImageDto> {
  return { ...(await signImage(store, style.result_key!, style.renditions)), settings: { backgroundType } };
}
