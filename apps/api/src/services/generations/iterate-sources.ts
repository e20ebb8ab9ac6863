import { randomInt } from 'node:crypto';
import { isTemplateHandle, storedTaps, type Tap, type TemplateHandle } from '@prodshot/contracts';
import type { GenerationStyleRow, GenerationWithStyles, ImageRow, ImagesRepository } from '@prodshot/db';
import { HttpError } from '../http-error.js';

/** Seeds are positive 31-bit integers (the column's range, and what slot seeds have always been). */
const SEED_LIMIT = 2_147_483_647;

/** What a new take of an output renders: the template or prompt its scene came from. */
export interface OutputScene {
  template: TemplateHandle | undefined;
  prompt: string | undefined;
}

/**
 * The scene an output was rendered in, from its slot: a template's handle, or the prompt a custom
 * request, a smart style or auto mode's pick wrote there. A background removal has no scene.
 */
export function sceneOf(kind: GenerationWithStyles['kind'], slot: GenerationStyleRow): OutputScene {
  if (kind === 'remove-background')
    throw new HttpError(
      409,
      'A background removal has no scene to vary: choose a scene in the editor instead',
      'no_scene',
    );
  const template = slot.background_type && isTemplateHandle(slot.background_type) ? slot.background_type : undefined;
  const prompt = slot.prompt?.trim() || undefined;
  if (!template && !prompt)
    throw new HttpError(409, 'This output does not record its scene: open it in the editor to choose one', 'no_scene');
  return { template, prompt };
}

/** A fresh seed, never the one the output was rendered with (that would repeat the same picture). */
export function newSeed(previous: number | null): number {
  let seed = randomInt(1, SEED_LIMIT);
  while (seed === previous) seed = randomInt(1, SEED_LIMIT);
  return seed;
}

/** The upload a generation was made from, while the seller still has it: a deleted upload cannot be rendered again. */
export async function sourceImage(
  images: ImagesRepository,
  userId: string,
  generation: GenerationWithStyles,
): Promise<ImageRow> {
  const image = generation.image_id ? await images.findOwned(userId, generation.image_id) : undefined;
  if (!image)
    throw new HttpError(
      409,
      'The photo this shot was made from was deleted: upload it again to make more',
      'source_deleted',
    );
  return image;
}

/** The output a call names: 404 for a slot the generation does not have. */
export function slotOf(generation: GenerationWithStyles, index: number): GenerationStyleRow {
  const slot = generation.styles.find((style) => style.index === index);
  if (!slot) throw new HttpError(404, `This generation has no output ${index}`, 'output_not_found');
  return slot;
}

/** The seller's taps the generation was made with (its request records them), so a new take cuts out the same product. */
export function recordedTaps(generation: GenerationWithStyles): Tap[] | undefined {
  return storedTaps((generation.request as { focus?: unknown } | null)?.focus);
}
