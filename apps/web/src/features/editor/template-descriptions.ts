import type { TemplateHandle } from '@prodshot/contracts';

export const TEMPLATE_DESCRIPTIONS: Record<TemplateHandle, string> = {
  studio: 'Seamless backdrop with soft, even studio light',
  lifestyle: 'Warm living room in soft focus with window light',
  lightwood: 'Pale oak tabletop in bright daylight',
  marble: 'Polished white marble with gentle reflections',
  darkwood: 'Rich walnut table under moody low light',
  silk: 'Draped champagne silk with soft folds and sheen',
  industrial: 'Raw concrete and steel with directional light',
  scrapebook: 'Layered paper and tape for a handmade look',
  'pastel-gradient': 'Smooth pastel gradient for a modern, playful feel',
};
