import sharp from 'sharp';

/**
 * For a process that decodes each image once (the API's uploads): libvips' operation cache
 * (50 MB and 100 operations by default) keeps every recent upload's pixels for a reuse that never
 * comes, and is process-wide, so only the process entry may turn it off; the worker's engine
 * threads set their own cache for the renders that do reuse it.
 */
export function decodeEachImageOnce(): void {
  sharp.cache(false);
}
