import { isTemplateHandle, type GenerationDto, type TemplateHandle } from '@prodshot/contracts';

/** What the editor starts on when opened from a result: that output's template, or its prompt. */
export interface EditorPreset {
  mode: 'templates' | 'custom';
  template?: TemplateHandle;
  prompt?: string;
  /** The output's name as the seller saw it (a template's, a style's or auto mode's scene). */
  from: string;
}

/**
 * The output's template when it was made from one; otherwise the prompt it was rendered from (a
 * custom background, a smart style, or the scene auto mode picked). Null when it records neither.
 */
export function presetFor(generation: GenerationDto, index: number): EditorPreset | null {
  const slot = generation.styles.find((style) => style.index === index);
  if (!slot) return null;
  if (slot.backgroundType && isTemplateHandle(slot.backgroundType))
    return { mode: 'templates', template: slot.backgroundType, from: slot.name };
  if (slot.prompt) return { mode: 'custom', prompt: slot.prompt, from: slot.name };
  return null;
}
