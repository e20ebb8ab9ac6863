import { AUTO_BACKGROUND } from '@prodshot/contracts';
import { autoScene } from '../pipeline/auto-scene.js';
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

const SMALL_INPUT_SIDE = 1024;

/** Manual generation: `count` outputs of one template, custom prompt or auto-picked scene, one slot each. */
export const productShot: JobHandler<'product-shot'> = {
  async run(job, deps) {
    const p = job.data;
    await assertGenerationOpen(deps, p.generationId);
    // Every shot starts from the upload's cutout (so the request's extractSubjectFirst always holds).
    const extracted = await loadOrMakeCutout(deps, p.sourceKey, p.focus);
    const cutout = p.upscaleImageFirst ? await upscaleIfSmall(deps, extracted) : extracted;
    const background =
      p.backgroundType === AUTO_BACKGROUND
        ? { prompt: (await autoScene(deps, p, extracted)).prompt }
        : { template: p.backgroundType, prompt: p.prompt };
    for (let index = 0; index < p.count; index += 1) {
      await renderSlot(deps, { userId: p.userId, generationId: p.generationId, index }, async (progress) => {
        const common = {
          ...background,
          size: p.size,
          seed: p.seed === undefined ? slotSeed(p.generationId, index) : p.seed + index,
          format: 'png' as const,
          renditions: RENDITION_SIZES,
          hints: { title: p.productTitle, description: p.productDescription },
        };
        const shot = await deps.engine.generate({ ...common, cutout }, { sellerId: p.userId });
        await progress(90);
        return slotOutput(shot);
      });
      await job.updateProgress(Math.round(((index + 1) / p.count) * 100));
    }
    await finishIfDone(deps, p.userId, p.generationId);
    return { generationId: p.generationId };
  },
  async onFinalFailure(payload, message, deps) {
    await failOpenSlots(deps, payload.userId, payload.generationId, message);
    await finishIfDone(deps, payload.userId, payload.generationId, message);
  },
};

async function upscaleIfSmall(deps: Parameters<JobHandler<'product-shot'>['run']>[1], image: Buffer): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const { width = 0, height = 0 } = await sharp(image).metadata();
  const longest = Math.max(width, height);
  if (longest === 0 || longest >= SMALL_INPUT_SIDE) return image;
  return deps.engine.upscale(image, Math.min(4, SMALL_INPUT_SIDE / longest));
}
