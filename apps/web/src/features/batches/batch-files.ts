import { BATCH_ITEMS_MAX } from '@prodshot/contracts';
import { DASHBOARD_MAX_BYTES, imageFileProblem } from '../../lib/image-intake.js';

/** What the dashboard hands the batch draft (/batches/new) in history state. */
export interface BatchDraftState {
  files: File[];
}

/**
 * The photos of a multi-photo pick: only images within the dashboard's size, at most
 * BATCH_ITEMS_MAX. Too many is refused whole with the count (a seller decides which to leave
 * out), never cut silently; a file that is not an image or too large is left out with its reason.
 */
export function pickBatchFiles(chosen: File[]): { files: File[]; error: string | null } {
  const problems = chosen.map((file) => imageFileProblem(file, DASHBOARD_MAX_BYTES));
  const files = chosen.filter((_, index) => problems[index] === null);
  const refused = problems.filter((problem): problem is string => problem !== null);
  if (files.length > BATCH_ITEMS_MAX) {
    return {
      files: [],
      error: `A batch takes up to ${BATCH_ITEMS_MAX} photos at once; you picked ${files.length}. Pick ${BATCH_ITEMS_MAX} or fewer.`,
    };
  }
  if (files.length === 0)
    return {
      files: [],
      error:
        refused.length === 1
          ? refused[0]!
          : 'None of those files is an image under 10MB. Pick PNG, JPG or WebP photos.',
    };
  return { files, error: refused.length > 0 ? `Left out: ${refused.join(' ')}` : null };
}
