import { ObjectNotFoundError } from '@prodshot/storage';
import { storeRenditions } from '../pipeline/renditions.js';
import type { JobHandler } from './index.js';

/** The renditions of an image stored before they existed, asked for by the first list that showed it. */
export const makeRenditions: JobHandler<'make-renditions'> = {
  async run(job, deps) {
    const { key, owner } = job.data;
    const image = await deps.store.get(key).catch((error: unknown) => {
      if (error instanceof ObjectNotFoundError) return null;
      throw error;
    });
    if (!image) return { made: false };
    await storeRenditions(deps.store, key, image);
    if (owner.kind === 'image') await deps.repos.images.setRenditions(owner.id);
    else await deps.repos.generations.setStyleRenditions(owner.id);
    return { made: true };
  },
};
