import { loadOrMakeCutout } from '../pipeline/cutout.js';
import { RENDITION_SIZES } from '@prodshot/storage';
import {
  assertGenerationOpen,
  failOpenSlots,
  finishIfDone,
  renderSlot,
  slotOutput,
  slotSeed,
} from '../pipeline/slot-lifecycle.js';
import type { JobHandler } from './index.js';

/** A new background for a stored image, from a template or a prompt, as one output. */
export const generateBackground: JobHandler<'generate-background'> = {
  async run(job, deps) {
    const p = job.data;
    await assertGenerationOpen(deps, p.generationId);
    await renderSlot(deps, { userId: p.userId, generationId: p.generationId, index: 0 }, async () => {
      const shot = await deps.engine.generate(
        {
          cutout: await loadOrMakeCutout(deps, p.sourceKey, p.focus),
          template: p.backgroundType,
          prompt: p.prompt,
          size: p.size,
          seed: slotSeed(p.generationId, 0),
          format: 'png',
          renditions: RENDITION_SIZES,
        },
        { sellerId: p.userId },
      );
      return slotOutput(shot);
    });
    await finishIfDone(deps, p.userId, p.generationId);
    return { generationId: p.generationId };
  },
  async onFinalFailure(payload, message, deps) {
    await failOpenSlots(deps, payload.userId, payload.generationId, message);
    await finishIfDone(deps, payload.userId, payload.generationId, message);
  },
};
