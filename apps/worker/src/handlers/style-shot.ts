import { loadOrMakeCutout } from '../pipeline/cutout.js';
import { RENDITION_SIZES } from '@prodshot/storage';
import {
  assertGenerationOpen,
  failSlot,
  finishIfDone,
  renderSlot,
  slotOutput,
  slotSeed,
} from '../pipeline/slot-lifecycle.js';
import type { JobHandler } from './index.js';

/** One smart style: its own job, progress, retries and result. */
export const styleShot: JobHandler<'style-shot'> = {
  async run(job, deps) {
    const { userId, generationId, styleIndex: index } = job.data;
    await assertGenerationOpen(deps, generationId);
    await renderSlot(deps, { userId, generationId, index }, async (progress) => {
      const cutout = await loadOrMakeCutout(deps, job.data.sourceKey, job.data.focus);
      await progress(30);
      const shot = await deps.engine.generate(
        {
          cutout,
          prompt: job.data.stylePrompt,
          size: job.data.size,
          seed: slotSeed(generationId, index),
          format: 'png',
          renditions: RENDITION_SIZES,
          hints: { title: job.data.productTitle, description: job.data.productDescription },
        },
        { sellerId: userId },
      );
      await progress(90);
      return slotOutput(shot);
    });
    await finishIfDone(deps, userId, generationId);
    return { generationId, index };
  },
  async onFinalFailure(payload, message, deps) {
    await failSlot(
      deps,
      { userId: payload.userId, generationId: payload.generationId, index: payload.styleIndex },
      message,
    );
    await finishIfDone(deps, payload.userId, payload.generationId);
  },
};
