import { makeOutline } from '../pipeline/outline.js';
import type { JobHandler } from './index.js';

/** The outline again for the seller's tap (or the engine's own pick without one); the API waits for it and answers the subject. */
export const makeOutlineJob: JobHandler<'make-outline'> = {
  async run(job, deps) {
    await makeOutline(deps, job.data);
    return { imageId: job.data.imageId };
  },
};
