import { loadOrMakeCutout } from '../pipeline/cutout.js';
import { assertGenerationOpen, failOpenSlots, finishIfDone, renderSlot } from '../pipeline/slot-lifecycle.js';
import type { JobHandler } from './index.js';

/** The product on a transparent background, as one output. */
export const removeBackground: JobHandler<'remove-background'> = {
  async run(job, deps) {
    const { userId, generationId, sourceKey, focus } = job.data;
    await assertGenerationOpen(deps, generationId);
    await renderSlot(deps, { userId, generationId, index: 0 }, async () => ({
      image: await loadOrMakeCutout(deps, sourceKey, focus),
      mimeType: 'image/png',
    }));
    await finishIfDone(deps, userId, generationId);
    return { generationId };
  },
  async onFinalFailure(payload, message, deps) {
    await failOpenSlots(deps, payload.userId, payload.generationId, message);
    await finishIfDone(deps, payload.userId, payload.generationId, message);
  },
};
