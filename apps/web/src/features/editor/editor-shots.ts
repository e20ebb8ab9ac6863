import {
  AUTO_BACKGROUND,
  templateName,
  type CoachWarning,
  type GenerationDto,
  type ProcessedImageDto,
  type ShotRef,
  type TemplateHandle,
} from '@prodshot/contracts';
import type { ShotRequest } from './api/generate-product-shots.js';

export type Mode = 'templates' | 'custom' | 'auto';

/** What a click asked for: it names the shot and its history entry once the generation settles. */
export interface AskedFor {
  type: string;
  prompt: string | null;
  template: TemplateHandle | null;
  /** What the shots' settings say: the template, 'custom' or 'auto'. */
  backgroundType: string;
}

export interface PendingShot extends AskedFor {
  generationId: string;
}

/** A result on screen, where its full file is downloaded from, and the name the seller knows it by ('Marble', 'Urban Concrete'). */
export type Shot = ProcessedImageDto & ShotRef & { name: string };

export interface HistoryEntry extends AskedFor {
  key: number;
  images: Shot[];
  /** The scene auto mode picked. */
  scene: string | null;
}

/** What the editor works on: the upload as the API signs it now, and the ids it came with. */
export interface Source {
  imageUrl: string;
  previewUrl: string;
  imageId: string;
  fileId: string;
  name: string | undefined;
  productTitle: string | null;
  coach: CoachWarning[] | undefined;
}

/** What a click asks for, and the part of the request body that says it. */
export function askedFor(
  mode: Mode,
  template: TemplateHandle | null,
  prompt: string,
): { asked: AskedFor; background: Pick<ShotRequest, 'backgroundType' | 'prompt'> } {
  if (mode === 'templates')
    return {
      asked: { type: templateName(template), prompt: null, template, backgroundType: template! },
      background: { backgroundType: template! },
    };
  if (mode === 'auto')
    return {
      asked: { type: templateName(AUTO_BACKGROUND), prompt: null, template: null, backgroundType: AUTO_BACKGROUND },
      background: { backgroundType: AUTO_BACKGROUND },
    };
  const text = prompt.trim();
  return {
    asked: { type: 'Custom', prompt: text, template: null, backgroundType: 'custom' },
    background: { prompt: text },
  };
}

/** Auto mode's pick, as the worker recorded it on the generation's slots. */
export function pickedScene(generation: GenerationDto): { scene: string | null; prompt: string | null } {
  const slot = generation.styles.find((s) => s.prompt);
  return { scene: slot?.name ?? null, prompt: slot?.prompt ?? null };
}

/** The finished shots of a settled generation, each with the settings and the name it was asked with. */
export function shotsOf(generation: GenerationDto, asked: Pick<AskedFor, 'backgroundType' | 'type'>): Shot[] {
  return generation.styles
    .filter((s) => s.status === 'complete' && s.url)
    .map((s) => ({
      url: s.url!,
      thumbnailUrl: s.thumbnailUrl!,
      previewUrl: s.previewUrl!,
      settings: { backgroundType: asked.backgroundType },
      generationId: generation.id,
      index: s.index,
      name: asked.type,
    }));
}

/** One output of a past generation, as "Open in editor" hands it over: shown as it is, under its style's name. */
export function openedShot(generation: GenerationDto, index: number): Shot | null {
  const slot = generation.styles.find((s) => s.index === index);
  if (!slot || slot.status !== 'complete' || !slot.url || !slot.thumbnailUrl || !slot.previewUrl) return null;
  return {
    url: slot.url,
    thumbnailUrl: slot.thumbnailUrl,
    previewUrl: slot.previewUrl,
    settings: { backgroundType: slot.backgroundType ?? 'custom' },
    generationId: generation.id,
    index,
    name: slot.name,
  };
}
