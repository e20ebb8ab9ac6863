import sharp from 'sharp';
import { EXPORT_PRESETS } from '@prodshot/contracts';
import { renderExport } from '@prodshot/imaging';
import { outputSource } from '../pipeline/export-source.js';
import type { JobHandler } from './index.js';

/**
 * Renders one marketplace export of a finished output and stores it under its export key. The key
 * names output, preset and format, so an export stored before is answered, not rendered again.
 * No credit moves: an export is a rendition of a shot already paid for.
 */
export const exportShot: JobHandler<'export-shot'> = {
  async run(job, deps) {
    const { userId, generationId, outputIndex, preset, format, key } = job.data;
    if (await deps.store.stat(key)) {
      const { width = 0, height = 0 } = await sharp(await deps.store.get(key)).metadata();
      return { key, width, height };
    }
    const source = await outputSource(deps, userId, generationId, outputIndex);
    const [cutout, shot] = await Promise.all([source.cutout(), deps.store.get(source.resultKey)]);
    const out = await renderExport({ preset: EXPORT_PRESETS[preset], format, cutout, scene: source.scene, shot });
    await deps.store.put(key, out.image, out.mimeType);
    return { key, width: out.width, height: out.height };
  },
};
