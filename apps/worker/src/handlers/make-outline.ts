import { isImagingError } from '@prodshot/imaging';
import { makeOutline } from '../pipeline/outline.js';
import type { JobHandler } from './index.js';

/**
 * The outline again for the seller's tap (or the engine's own pick without one); the API waits for it
 * and answers the subject. A tap on nothing the engine can cut out is the seller's miss, not a
 * failure: the job says so, the outline stays as it was, and nothing is retried.
 */
export const makeOutlineJob: JobHandler<'make-outline'> = {
  async run(job, deps) {
    try {
      await makeOutline(deps, job.data);
    } catch (error) {
      // Thrown in an engine thread, it arrives as an ImagingError carrying the code.
      if (isImagingError(error) && error.code === 'empty_image') return { imageId: job.data.imageId, missed: true };
      throw error;
    }
    return { imageId: job.data.imageId };
  },
};
