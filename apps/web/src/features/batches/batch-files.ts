import { BATCH_ITEMS_MAX } from '@prodshot/contracts';

/** What the dashboard hands the batch draft (/batches/new) in history state. */
export interface BatchDraftState {
  files: File[];
}

/**
 * The photos of a multi-photo pick: only images, at most BATCH_ITEMS_MAX. Too many is refused
 * whole with the count (a seller decides which to leave out), never cut silently.
 */
export function pickBatchFiles(chosen: File[]): { files: File[]; error: string | null } {
  const files = chosen.filter((file) => file.type.startsWith('image/'));
  if (files.length > BATCH_ITEMS_MAX) {
    return { files: [], error: `A batch takes up to ${BATCH_ITEMS_MAX} photos at once; you picked ${files.length}. Pick ${BATCH_ITEMS_MAX} or fewer.` };
  }
  if (files.length === 0) return { files: [], error: 'None of those files is an image. Pick PNG, JPG or WebP photos.' };
  const skipped = chosen.length - files.length;
  return { files, error: skipped > 0 ? `${skipped} of the files ${skipped === 1 ? 'is not an image and was' : 'are not images and were'} left out.` : null };
}
