import { UnrecoverableError } from 'bullmq';
import { storedTaps } from '@prodshot/contracts';
import type { GenerationStyleRow } from '@prodshot/db';
import type { ExportScene } from '@prodshot/imaging';
import type { WorkerDeps } from '../deps.js';
import { loadOrMakeCutout } from './cutout.js';
import { slotSeed } from './slot-lifecycle.js';

/** Kinds whose outputs are a cutout composed into a scene the local engine can render again. */
const COMPOSED_KINDS = new Set(['manual', 'auto', 'smart']);

export interface OutputSource {
  /** Storage key of the finished output. */
  resultKey: string;
  /** The upload's cutout the output was composed from (the seller's taps honoured). */
  cutout: () => Promise<Buffer>;
  /** The output's scene when the local engine made it, so it renders again pixel for pixel; else null. */
  scene: ExportScene | null;
}

/**
 * What an export or a compliance check starts from: a finished output of the seller's own
 * generation, its upload's cutout and, for the local engine, its scene and seed. The API checked
 * ownership and completion before enqueueing; an output gone since (deleted) fails for good.
 */
export async function outputSource(
  deps: WorkerDeps,
  userId: string,
  generationId: string,
  index: number,
): Promise<OutputSource> {
  const generation = await deps.repos.generations.find(generationId);
  if (!generation || generation.user_id !== userId) throw new UnrecoverableError('The generation no longer exists');
  const style = generation.styles.find((slot) => slot.index === index && slot.status === 'complete' && slot.result_key);
  if (!style?.result_key) throw new UnrecoverableError('This output is not finished');
  const image = generation.image_id ? await deps.repos.images.findOwned(userId, generation.image_id) : undefined;
  const focus = storedTaps((generation.request as { focus?: unknown } | null)?.focus);
  return {
    resultKey: style.result_key,
    cutout: async () => {
      if (!image) throw new UnrecoverableError('The upload of this generation no longer exists');
      return loadOrMakeCutout(deps, image.storage_key, focus);
    },
    scene:
      deps.engine.name === 'local' && COMPOSED_KINDS.has(generation.kind)
        ? sceneOf(style, generationId, generation.kind === 'smart')
        : null,
  };
}

/**
 * The scene a slot rendered in: its template or prompt (smart and auto slots keep theirs), and its
 * seed (recorded on the output; outputs stored before seeds were recorded used their slot's). Smart styles render from their prompt alone; their slot's background type is a style name.
 */
function sceneOf(style: GenerationStyleRow, generationId: string, promptOnly: boolean): ExportScene {
  return {
    template: promptOnly ? null : style.background_type,
    prompt: style.prompt,
    seed: style.seed ?? slotSeed(generationId, style.index),
  };
}
