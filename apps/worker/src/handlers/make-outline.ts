import { outlineDto, subjectDto, type SubjectFinding, type UploadOutline } from '@prodshot/contracts';
import { isImagingError } from '@prodshot/imaging';
import type { WorkerDeps } from '../deps.js';
import { makeOutline } from '../pipeline/outline.js';
import type { JobHandler } from './index.js';

/** What a refused upload becomes once the seller's tap found their product: their own pick, nothing to choose. */
const FOUND_BY_TAP: SubjectFinding & { found: true } = {
  found: true,
  needsFocus: false,
  confidence: 1,
  candidates: [],
};

/**
 * The outline again for the seller's tap (or the engine's own pick without one); the API waits for it
 * and answers the subject. A tap on nothing the engine can cut out is the seller's miss, not a
 * failure: the job says so, the outline stays as it was, and nothing is retried. A tap that finds
 * the product in a photo the engine refused overturns the refusal.
 */
export const makeOutlineJob: JobHandler<'make-outline'> = {
  async run(job, deps) {
    let made: UploadOutline;
    try {
      made = await makeOutline(deps, job.data);
    } catch (error) {
      // A tap on nothing: the engine thread's refusal, revived with its code.
      if (isImagingError(error) && error.code === 'empty_image') return { imageId: job.data.imageId, missed: true };
      throw error;
    }
    await overturnRefusal(deps, job.data, made);
    return { imageId: job.data.imageId };
  },
};

/** A refused upload is found now, and the owner's other screens hear it as they heard the refusal. */
async function overturnRefusal(
  deps: WorkerDeps,
  { userId, imageId }: { userId: string; imageId: string },
  outline: UploadOutline,
): Promise<void> {
  const coach = await deps.repos.images.replaceRefusal(imageId, FOUND_BY_TAP);
  if (!coach) return;
  const shown = outlineDto(outline, await deps.store.signedUrl(outline.key));
  deps.publisher.emit(userId, 'image:subject', subjectDto(imageId, FOUND_BY_TAP, coach, shown));
}
