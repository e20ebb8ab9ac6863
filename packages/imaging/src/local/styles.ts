import { PROMPT_MAX_LENGTH } from '@prodshot/contracts';
import type { ProductKind } from '@prodshot/contracts';
import type { Analysis, ProductHints, StyleRecommendations, StyleSuggestion } from '../types.js';
import { resolveScene } from './prompt/scene-from-prompt.js';

/** Styles per kind, best first; each prompt uses words the prompt parser understands. */
const STYLES_BY_KIND: Record<ProductKind, StyleSuggestion[]> = {
  footwear: [
    { name: 'Urban Concrete', prompt: 'raw concrete floor against a brick wall, dramatic side light' },
    { name: 'Clean Studio', prompt: 'seamless light grey studio backdrop, studio lighting' },
    { name: 'Beach Walk', prompt: 'sandy beach at sunset, golden hour' },
    { name: 'Warm Oak', prompt: 'light oak wooden floor, soft natural light' },
    { name: 'Playful Pastel', prompt: 'playful pastel gradient backdrop' },
  ],
  beauty: [
    { name: 'Marble Vanity', prompt: 'white marble bathroom shelf, soft diffused light, elegant' },
    { name: 'Silk Drape', prompt: 'champagne silk fabric with soft folds, luxurious' },
    { name: 'Pastel Dream', prompt: 'soft pastel gradient of peach and lilac' },
    { name: 'Spa Calm', prompt: 'calm spa bathroom, fresh and airy' },
    { name: 'Golden Hour', prompt: 'sandy beach at sunset, warm golden hour' },
  ],
  cosmetics: [
    { name: 'Blush Silk', prompt: 'blush pink silk with soft folds, elegant' },
    { name: 'Marble Luxe', prompt: 'white marble surface, luxurious, studio lighting' },
    { name: 'Candy Pastel', prompt: 'vibrant pastel gradient of pink and lavender' },
    { name: 'Scrapbook Flat Lay', prompt: 'playful kraft paper scrapbook flat lay' },
  ],
  accessories: [
    { name: 'Walnut Luxe', prompt: 'dark walnut wooden table, moody dramatic light' },
    { name: 'Marble Elegance', prompt: 'polished white marble, elegant, soft light' },
    { name: 'Silk Sheen', prompt: 'champagne silk fabric, luxurious' },
    { name: 'Summer Beach', prompt: 'sandy beach at sunset' },
    { name: 'Catalog Studio', prompt: 'clean white studio backdrop, studio lighting' },
  ],
  electronics: [
    { name: 'Tech Studio', prompt: 'charcoal studio backdrop, dramatic studio lighting' },
    { name: 'Modern Desk', prompt: 'light oak wooden desk in a modern room' },
    { name: 'Concrete Loft', prompt: 'concrete surface in an industrial loft, cool light' },
    { name: 'City Night', prompt: 'urban city street at night, neon' },
    { name: 'Minimal White', prompt: 'minimal white studio backdrop, soft light' },
  ],
  furniture: [
    { name: 'Cosy Living Room', prompt: 'cozy living room, warm natural light' },
    { name: 'Scandi Light Wood', prompt: 'light oak wooden floor, minimal, bright daylight' },
    { name: 'Industrial Loft', prompt: 'concrete floor against a brick wall, industrial' },
    { name: 'Garden Patio', prompt: 'sunny garden, bright daylight' },
  ],
  food: [],
  kitchenware: [],
  clothing: [],
  models: [],
  unknown: [
    { name: 'Clean Studio', prompt: 'seamless light grey studio backdrop, studio lighting' },
    { name: 'Marble Elegance', prompt: 'polished white marble, elegant, soft light' },
    { name: 'Warm Wood', prompt: 'warm wooden table, cozy' },
    { name: 'Pastel Pop', prompt: 'playful pastel gradient backdrop' },
    { name: 'Beach Sunset', prompt: 'sandy beach at sunset' },
  ],
};

/** Dark products read best on light scenes and light ones on darker scenes: reorder by contrast. */
function byContrast(styles: StyleSuggestion[], brightness: number): StyleSuggestion[] {
  const darkScene = (s: StyleSuggestion) => /dark|walnut|charcoal|night|dramatic|brick/.test(s.prompt);
  if (brightness > 0.7) return [...styles].sort((a, b) => Number(darkScene(b)) - Number(darkScene(a)));
  if (brightness < 0.3) return [...styles].sort((a, b) => Number(darkScene(a)) - Number(darkScene(b)));
  return styles;
}

function titleCase(text: string): string {
  return text.replace(/\b\w/g, (c) => c.toUpperCase());
}

export function recommendStylesFor(analysis: Analysis, hints: ProductHints | undefined): StyleRecommendations {
  const kind = analysis.kind;
  // Unsupported kinds still get neutral styles: the API decides whether to refuse.
  const pool = STYLES_BY_KIND[kind].length ? STYLES_BY_KIND[kind] : STYLES_BY_KIND.unknown;
  const styles = byContrast(pool, analysis.brightness).slice(0, 5);
  const main = analysis.palette[0]?.hex;
  const productType = kind === 'unknown' ? 'product' : kind;
  return {
    productInfo: {
      productTitle: hints?.title?.trim() || titleCase(productType),
      productDescription:
        hints?.description?.trim() ||
        `A ${productType}${main ? ` in ${main}` : ''}, photographed for a marketing shot.`,
      productType,
    },
    styles,
  };
}

/**
 * A fuller background prompt: the seller's words, then what the local engine will render for
 * them (scene, light, shadows), so the enhanced text is also an honest preview.
 */
export function enhance(prompt: string, analysis: Analysis | undefined): string {
  const trimmed = prompt.trim().replace(/[.\s]+$/, '');
  const { spec } = resolveScene(undefined, trimmed);
  const light = spec.light.warmth > 0.3 ? 'warm' : spec.light.warmth < -0.2 ? 'cool' : 'neutral';
  const softness = spec.light.softness > 0.6 ? 'soft, diffused' : 'crisp, directional';
  const side = spec.light.azimuth < 0 ? 'left' : 'right';
  const parts = [
    trimmed,
    spec.description,
    `${softness} ${light} key light from the ${side}`,
    'product in sharp focus with a natural contact shadow',
    spec.surface.gloss > 0.15 ? 'subtle reflection on the glossy surface' : null,
    analysis?.palette[0] ? `backdrop tones chosen to complement ${analysis.palette[0].hex}` : null,
    'shallow depth of field, professional product photography',
  ].filter((part): part is string => Boolean(part));
  return parts.join(', ').slice(0, PROMPT_MAX_LENGTH);
}
