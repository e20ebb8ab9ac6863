import type { TemplateHandle } from '@prodshot/contracts';
import { PLACE_SCENES, TEMPLATE_SCENES } from '../scenes/presets.js';
import type { Rgb, SceneSpec, SurfaceKind } from '../scenes/scene-spec.js';
import { varyScene } from '../scenes/scene-variation.js';
import { parsePrompt } from './parse-prompt.js';
import type { ParsedPrompt } from './parse-prompt.js';

/** The scene a bare material asks for: 'wooden table' is a table scene, 'sand' a beach. */
function sceneForMaterial(kind: Exclude<SurfaceKind, 'none'>, tone: 'light' | 'dark' | null): SceneSpec {
  switch (kind) {
    case 'wood':
      return tone === 'dark' ? TEMPLATE_SCENES.darkwood : tone === 'light' ? TEMPLATE_SCENES.lightwood : WOODEN_TABLE;
    case 'marble':
      return TEMPLATE_SCENES.marble;
    case 'concrete':
      return TEMPLATE_SCENES.industrial;
    case 'silk':
      return TEMPLATE_SCENES.silk;
    case 'paper':
      return TEMPLATE_SCENES.scrapebook;
    case 'sand':
      return PLACE_SCENES.beach!;
    case 'linen':
      return TEMPLATE_SCENES.lifestyle;
    case 'grass':
      return PLACE_SCENES.garden!;
  }
}

/** A mid-tone wooden table in a warm, softly lit room: what 'wooden table' usually means. */
const WOODEN_TABLE: SceneSpec = {
  ...TEMPLATE_SCENES.lightwood,
  id: 'wooden-table',
  description: 'warm oak wooden table in a softly lit room',
  wall: {
    kind: 'room',
    colours: [
      [206, 190, 170],
      [236, 226, 212],
      [160, 150, 130],
    ],
  },
  surface: { kind: 'wood', base: [186, 140, 96], accent: [132, 90, 56], gloss: 0.06 },
  light: { azimuth: -0.6, warmth: 0.35, key: 1, softness: 0.75, spot: 0.35 },
  props: ['bokeh'],
};

const MATERIAL_PALETTES: Record<Exclude<SurfaceKind, 'none'>, { base: Rgb; accent: Rgb; gloss: number }> = {
  wood: { base: [186, 140, 96], accent: [132, 90, 56], gloss: 0.06 },
  marble: { base: [238, 237, 235], accent: [120, 122, 130], gloss: 0.28 },
  concrete: { base: [150, 148, 144], accent: [100, 98, 96], gloss: 0.04 },
  silk: { base: [226, 198, 172], accent: [250, 236, 220], gloss: 0.08 },
  paper: { base: [210, 182, 140], accent: [176, 148, 108], gloss: 0 },
  sand: { base: [222, 192, 150], accent: [186, 150, 110], gloss: 0 },
  linen: { base: [226, 216, 200], accent: [196, 184, 166], gloss: 0 },
  grass: { base: [110, 150, 70], accent: [70, 110, 40], gloss: 0 },
};

function baseScene(parsed: ParsedPrompt, template: TemplateHandle | undefined): SceneSpec {
  if (template) return TEMPLATE_SCENES[template];
  // 'backdrop' reads as the studio, but a pastel or colourful backdrop is the pastel gradient, not grey.
  if (parsed.place === 'studio')
    return parsed.moods.includes('vibrant') ? TEMPLATE_SCENES['pastel-gradient'] : TEMPLATE_SCENES.studio;
  if (parsed.place) return PLACE_SCENES[parsed.place]!;
  if (parsed.material) return sceneForMaterial(parsed.material.kind, parsed.material.tone);
  if (parsed.lighting.includes('studio')) return TEMPLATE_SCENES.studio;
  if (parsed.moods.includes('vibrant')) return TEMPLATE_SCENES['pastel-gradient'];
  if (parsed.moods.includes('luxury')) return TEMPLATE_SCENES.marble;
  if (parsed.moods.includes('rustic')) return TEMPLATE_SCENES.darkwood;
  if (parsed.moods.includes('cozy')) return TEMPLATE_SCENES.lifestyle;
  return TEMPLATE_SCENES.studio;
}

const scaleRgb = (rgb: Rgb, k: number): Rgb => rgb.map((v) => Math.min(255, Math.round(v * k))) as unknown as Rgb;

/** Material named on top of a place ('marble counter on the beach') replaces the place's surface. */
function applyMaterial(spec: SceneSpec, parsed: ParsedPrompt): SceneSpec {
  const material = parsed.material;
  if (!material || spec.surface.kind === material.kind || spec.view === 'seamless') return spec;
  const palette = MATERIAL_PALETTES[material.kind];
  const toneScale = material.tone === 'dark' ? 0.55 : material.tone === 'light' ? 1.12 : 1;
  return {
    ...spec,
    surface: {
      kind: material.kind,
      base: scaleRgb(palette.base, toneScale),
      accent: scaleRgb(palette.accent, toneScale),
      gloss: palette.gloss,
    },
  };
}

function applyColours(spec: SceneSpec, parsed: ParsedPrompt): SceneSpec {
  let next = spec;
  const surface = parsed.colours.find((c) => c.role === 'surface');
  if (surface && next.surface.kind !== 'none') {
    next = {
      ...next,
      surface: {
        ...next.surface,
        base: surface.rgb,
        accent: scaleRgb(surface.rgb, next.surface.kind === 'marble' ? 0.6 : 0.72),
      },
    };
  }
  const backdrops = parsed.colours.filter((c) => c.role === 'backdrop').map((c) => c.rgb);
  if (backdrops.length === 0) return next;
  const first = backdrops[0]!;
  if (next.wall.kind === 'blobs')
    return {
      ...next,
      wall: {
        kind: 'blobs',
        colours: backdrops.length > 1 ? backdrops : [first, scaleRgb(first, 1.12), scaleRgb(first, 0.9)],
      },
    };
  if (next.wall.kind === 'sky') return next;
  const wall = {
    kind: next.wall.kind,
    colours: [scaleRgb(first, 1.04), scaleRgb(first, 0.9), ...next.wall.colours.slice(2)],
  };
  // A coloured seamless backdrop colours the floor too, or the sweep would show a seam.
  const surfaceNext = next.view === 'seamless' ? { ...next.surface, base: scaleRgb(first, 1.06) } : next.surface;
  return { ...next, wall, surface: surfaceNext };
}

function applyLighting(spec: SceneSpec, parsed: ParsedPrompt): SceneSpec {
  let light = { ...spec.light };
  let vignette = spec.vignette;
  for (const lighting of parsed.lighting) {
    if (lighting === 'sunset') light = { ...light, warmth: 0.85, key: light.key * 0.97, softness: 0.5, azimuth: 0.6 };
    if (lighting === 'studio') light = { ...light, softness: 0.75, spot: 0.85, key: 1.03, warmth: 0 };
    if (lighting === 'dramatic') {
      light = { ...light, softness: 0.2, spot: 1, key: light.key * 0.85 };
      vignette = Math.max(vignette, 0.55);
    }
    if (lighting === 'bright') light = { ...light, key: light.key * 1.06, softness: 0.6, warmth: light.warmth + 0.1 };
    if (lighting === 'night') {
      light = { ...light, key: light.key * 0.75, warmth: -0.6, spot: 0.9 };
      vignette = Math.max(vignette, 0.5);
    }
    if (lighting === 'soft') light = { ...light, softness: 0.95 };
  }
  let props = spec.props;
  if (parsed.lighting.includes('sunset') && spec.wall.kind === 'sky' && !props.includes('sun'))
    props = [...props, 'sun'];
  return { ...spec, light, vignette, props };
}

function applyMoods(spec: SceneSpec, parsed: ParsedPrompt): SceneSpec {
  let next = spec;
  for (const mood of parsed.moods) {
    if (mood === 'cozy') next = { ...next, light: { ...next.light, warmth: Math.max(next.light.warmth, 0.5) } };
    if (mood === 'luxury')
      next = {
        ...next,
        vignette: Math.max(next.vignette, 0.35),
        surface: { ...next.surface, gloss: Math.max(next.surface.gloss, 0.2) },
      };
    if (mood === 'minimal' || mood === 'modern')
      next = { ...next, vignette: Math.min(next.vignette, 0.15), props: next.props.filter((p) => p !== 'bokeh') };
    if (mood === 'calm')
      next = {
        ...next,
        light: { ...next.light, warmth: next.light.warmth - 0.15, softness: Math.max(next.light.softness, 0.8) },
      };
    if (mood === 'festive' && !next.props.includes('bokeh'))
      next = {
        ...next,
        props: [...next.props, 'bokeh'],
        light: { ...next.light, warmth: Math.max(next.light.warmth, 0.4) },
      };
    if (mood === 'rustic') next = { ...next, light: { ...next.light, warmth: Math.max(next.light.warmth, 0.35) } };
  }
  return next;
}

export interface ResolvedScene {
  spec: SceneSpec;
  parsed: ParsedPrompt | null;
}

/**
 * The scene for a template and/or a prompt. A template sets the scene and a prompt refines it
 * (colours, light, mood); a prompt alone picks the scene from its place, material, lighting
 * or mood, in that order of precedence.
 */
export function resolveScene(template: TemplateHandle | undefined, prompt: string | undefined): ResolvedScene {
  const text = prompt?.trim();
  if (!text) return { spec: TEMPLATE_SCENES[template ?? 'studio'], parsed: null };
  const parsed = parsePrompt(text);
  let spec = baseScene(parsed, template);
  spec = applyMaterial(spec, parsed);
  spec = applyColours(spec, parsed);
  spec = applyLighting(spec, parsed);
  spec = applyMoods(spec, parsed);
  return { spec: { ...spec, description: describe(spec, parsed) }, parsed };
}

function describe(spec: SceneSpec, parsed: ParsedPrompt): string {
  const extras = [
    ...parsed.colours.map((c) => `${c.word} ${c.role === 'surface' ? 'surface' : 'backdrop'}`),
    ...parsed.lighting.map((l) => `${l} light`),
    ...parsed.moods.map((m) => `${m} mood`),
  ];
  return extras.length ? `${spec.description}; ${extras.join(', ')}` : spec.description;
}

/** The scene one take renders in: the scene asked for, varied by the take's seed as the engine varies it. */
export function seededScene(
  template: TemplateHandle | undefined,
  prompt: string | undefined,
  seed: number,
): ResolvedScene {
  const resolved = resolveScene(template, prompt);
  return { ...resolved, spec: varyScene(resolved.spec, seed) };
}
