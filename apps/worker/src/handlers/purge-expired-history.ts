import { deleteImageFiles, generationPrefix } from '@prodshot/storage';
import type { JobHandler } from './index.js';

/** Storage calls in flight at once: enough to hide S3's latency, few enough not to crowd a seller's requests. */
const STORAGE_PARALLELISM = 8;

/**
 * Deletes history past its owner's plan's days (docs/decisions.md: 30 on Starter and without a plan),
 * oldest first, in batches: a batch's files first, then the rows still expired, so a run cut short
 * leaves rows the next run finds again and deletes whatever files remain (deleting a missing file
 * is no error). A seller's batch of photos goes once none of its generations is left. Generations
 * still running, and uploads they read, are left alone; credit ledger rows stay (see HistoryRepository).
 */
export const purgeExpiredHistory: JobHandler<'purge-expired-history'> = {
  async run(job, deps) {
    const history = deps.repos.history;
    const { batchSize, maxBatches } = job.data;
    const deleted = { generations: 0, images: 0, batches: 0 };
    for (let batch = 0; batch < maxBatches; batch += 1) {
      const generations = await history.expiredGenerations(batchSize);
      await inParallel(generations, (generation) =>
        deps.store.deletePrefix(generationPrefix(generation.userId, generation.id)),
      );
      deleted.generations += (await history.deleteGenerations(generations.map((generation) => generation.id))).length;
      const emptied = await history.deleteEmptyBatches(batchSize);
      deleted.batches += emptied.length;

      const images = await history.expiredImages(batchSize);
      await inParallel(images, (image) => deleteImageFiles(deps.store, image.storageKey));
      deleted.images += (await history.deleteImages(images.map((image) => image.id))).length;

      if (generations.length < batchSize && images.length < batchSize && emptied.length < batchSize) break;
    }
    return deleted;
  },
};

async function inParallel<T>(items: T[], task: (item: T) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < items.length; start += STORAGE_PARALLELISM) {
    await Promise.all(items.slice(start, start + STORAGE_PARALLELISM).map(task));
  }
}
