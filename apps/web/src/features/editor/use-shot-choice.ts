import type { TemplateHandle } from '@prodshot/contracts';
import { useState } from 'react';
import type { EditorPreset } from './editor-preset.js';
import { askedFor, type Mode } from './editor-shots.js';
import { isBlankPrompt } from './prompt-box.js';

/** The background the seller picks (a template, a prompt or auto) and how many shots, starting from a result's preset. */
export function useShotChoice(preset: EditorPreset | null) {
  const [mode, setMode] = useState<Mode>(preset?.mode ?? 'templates');
  const [template, setTemplate] = useState<TemplateHandle | null>(preset?.template ?? 'lifestyle');
  const [prompt, setPrompt] = useState(preset?.prompt ?? '');
  // Auto mode keeps its own count: a 4 picked there does not carry over to a template.
  const [autoCount, setAutoCount] = useState(1);
  const [count, setCount] = useState(1);
  return {
    mode,
    setMode,
    template,
    setTemplate,
    prompt,
    setPrompt,
    autoCount,
    setAutoCount,
    count,
    setCount,
    chosen: mode === 'templates' ? template !== null : mode === 'custom' ? !isBlankPrompt(prompt) : true,
    /** What a click asks for now, and how many. */
    requested: () => ({ ...askedFor(mode, template, prompt), count: mode === 'auto' ? autoCount : count }),
  };
}

export type ShotChoice = ReturnType<typeof useShotChoice>;
