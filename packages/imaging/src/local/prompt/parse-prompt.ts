// Over 250 lines: mostly the vocabulary tables (places, light, moods, materials, colours); the parser that
// reads them is the last fifty lines.
import type { Rgb, SurfaceKind } from '../scenes/scene-spec.js';

export type Place = 'beach' | 'kitchen' | 'garden' | 'bathroom' | 'living' | 'city' | 'studio';
export type Lighting = 'sunset' | 'studio' | 'dramatic' | 'bright' | 'night' | 'soft';
export type Mood = 'cozy' | 'luxury' | 'minimal' | 'vibrant' | 'calm' | 'rustic' | 'modern' | 'festive';
export type MaterialTone = 'light' | 'dark' | null;

export interface ColourMention {
  word: string;
  rgb: Rgb;
  /** 'surface' when the colour qualifies a material ('pink marble'), otherwise the backdrop. */
  role: 'surface' | 'backdrop';
}

export interface ParsedPrompt {
  place: Place | null;
  material: { kind: Exclude<SurfaceKind, 'none'>; tone: MaterialTone; word: string } | null;
  colours: ColourMention[];
  lighting: Lighting[];
  moods: Mood[];
}

const COLOURS: Record<string, Rgb> = {
  red: [200, 50, 50],
  crimson: [170, 30, 50],
  burgundy: [120, 30, 45],
  maroon: [110, 30, 40],
  orange: [240, 140, 60],
  coral: [250, 128, 114],
  peach: [250, 200, 170],
  terracotta: [200, 110, 80],
  yellow: [246, 210, 80],
  mustard: [210, 170, 60],
  gold: [212, 175, 90],
  golden: [218, 180, 100],
  green: [90, 160, 90],
  sage: [170, 190, 160],
  olive: [128, 128, 70],
  emerald: [40, 140, 100],
  mint: [190, 232, 210],
  teal: [40, 130, 130],
  turquoise: [64, 200, 200],
  aqua: [120, 210, 220],
  blue: [70, 120, 200],
  navy: [30, 45, 90],
  cobalt: [40, 80, 170],
  sky: [150, 200, 240],
  purple: [130, 80, 160],
  violet: [150, 100, 200],
  lilac: [200, 180, 230],
  lavender: [210, 196, 240],
  pink: [240, 170, 190],
  blush: [240, 200, 200],
  rose: [230, 150, 170],
  magenta: [200, 60, 150],
  white: [246, 246, 246],
  ivory: [250, 246, 232],
  cream: [245, 236, 214],
  beige: [226, 210, 186],
  tan: [210, 180, 140],
  brown: [130, 90, 60],
  chocolate: [90, 60, 40],
  black: [28, 28, 30],
  charcoal: [60, 62, 66],
  grey: [160, 160, 164],
  gray: [160, 160, 164],
  silver: [196, 198, 204],
};

/** Material words → surface kind, with the tone a word implies (oak is light, walnut dark). */
const MATERIALS: Record<string, { kind: Exclude<SurfaceKind, 'none'>; tone: MaterialTone }> = {
  wood: { kind: 'wood', tone: null },
  wooden: { kind: 'wood', tone: null },
  timber: { kind: 'wood', tone: null },
  oak: { kind: 'wood', tone: 'light' },
  pine: { kind: 'wood', tone: 'light' },
  birch: { kind: 'wood', tone: 'light' },
  bamboo: { kind: 'wood', tone: 'light' },
  walnut: { kind: 'wood', tone: 'dark' },
  mahogany: { kind: 'wood', tone: 'dark' },
  ebony: { kind: 'wood', tone: 'dark' },
  rosewood: { kind: 'wood', tone: 'dark' },
  marble: { kind: 'marble', tone: null },
  quartz: { kind: 'marble', tone: 'light' },
  granite: { kind: 'marble', tone: 'dark' },
  concrete: { kind: 'concrete', tone: null },
  cement: { kind: 'concrete', tone: null },
  stone: { kind: 'concrete', tone: null },
  slate: { kind: 'concrete', tone: 'dark' },
  silk: { kind: 'silk', tone: null },
  satin: { kind: 'silk', tone: null },
  velvet: { kind: 'silk', tone: 'dark' },
  fabric: { kind: 'silk', tone: null },
  linen: { kind: 'linen', tone: 'light' },
  cotton: { kind: 'linen', tone: 'light' },
  tablecloth: { kind: 'linen', tone: 'light' },
  paper: { kind: 'paper', tone: null },
  kraft: { kind: 'paper', tone: null },
  cardboard: { kind: 'paper', tone: null },
  scrapbook: { kind: 'paper', tone: null },
  sand: { kind: 'sand', tone: null },
  sandy: { kind: 'sand', tone: null },
  dune: { kind: 'sand', tone: null },
  grass: { kind: 'grass', tone: null },
  lawn: { kind: 'grass', tone: null },
  moss: { kind: 'grass', tone: null },
};

const PLACES: Record<string, Place> = {
  beach: 'beach',
  seaside: 'beach',
  ocean: 'beach',
  sea: 'beach',
  coast: 'beach',
  shore: 'beach',
  tropical: 'beach',
  kitchen: 'kitchen',
  countertop: 'kitchen',
  counter: 'kitchen',
  garden: 'garden',
  park: 'garden',
  outdoor: 'garden',
  outdoors: 'garden',
  nature: 'garden',
  forest: 'garden',
  meadow: 'garden',
  bathroom: 'bathroom',
  spa: 'bathroom',
  vanity: 'bathroom',
  living: 'living',
  bedroom: 'living',
  home: 'living',
  cafe: 'living',
  interior: 'living',
  shelf: 'living',
  room: 'living',
  city: 'city',
  street: 'city',
  urban: 'city',
  rooftop: 'city',
  studio: 'studio',
  backdrop: 'studio',
};

const LIGHTING: Record<string, Lighting> = {
  sunset: 'sunset',
  sunrise: 'sunset',
  dusk: 'sunset',
  golden: 'sunset',
  'golden hour': 'sunset',
  'studio lighting': 'studio',
  'studio light': 'studio',
  softbox: 'studio',
  'key light': 'studio',
  dramatic: 'dramatic',
  spotlight: 'dramatic',
  moody: 'dramatic',
  'low key': 'dramatic',
  shadows: 'dramatic',
  bright: 'bright',
  sunny: 'bright',
  daylight: 'bright',
  'natural light': 'bright',
  sunlit: 'bright',
  night: 'night',
  neon: 'night',
  evening: 'night',
  midnight: 'night',
  soft: 'soft',
  diffused: 'soft',
  diffuse: 'soft',
  gentle: 'soft',
  overcast: 'soft',
};

const MOODS: Record<string, Mood> = {
  cozy: 'cozy',
  cosy: 'cozy',
  warm: 'cozy',
  homely: 'cozy',
  hygge: 'cozy',
  luxury: 'luxury',
  luxurious: 'luxury',
  elegant: 'luxury',
  premium: 'luxury',
  upscale: 'luxury',
  glamorous: 'luxury',
  minimal: 'minimal',
  minimalist: 'minimal',
  clean: 'minimal',
  simple: 'minimal',
  plain: 'minimal',
  vibrant: 'vibrant',
  colorful: 'vibrant',
  colourful: 'vibrant',
  playful: 'vibrant',
  fun: 'vibrant',
  pastel: 'vibrant',
  bold: 'vibrant',
  calm: 'calm',
  serene: 'calm',
  fresh: 'calm',
  airy: 'calm',
  peaceful: 'calm',
  spring: 'calm',
  rustic: 'rustic',
  farmhouse: 'rustic',
  vintage: 'rustic',
  modern: 'modern',
  contemporary: 'modern',
  sleek: 'modern',
  festive: 'festive',
  christmas: 'festive',
  holiday: 'festive',
  party: 'festive',
};

const SHADE_MODIFIERS: Record<string, number> = { light: 0.45, pale: 0.55, soft: 0.35, dark: -0.45, deep: -0.35 };

function tokenise(prompt: string): string[] {
  return (
    prompt
      .toLowerCase()
      .replace(/colour/g, 'color')
      .match(/[a-z]+/g) ?? []
  );
}

function shade(rgb: Rgb, amount: number): Rgb {
  const target = amount >= 0 ? 255 : 0;
  const t = Math.abs(amount);
  return rgb.map((v) => Math.round(v + (target - v) * t)) as unknown as Rgb;
}

/** Two-word phrases first ('golden hour', 'studio lighting'), then single words. */
function matchPhrase<T>(tokens: string[], i: number, table: Record<string, T>): { value: T; length: number } | null {
  const pair = tokens[i + 1] ? `${tokens[i]} ${tokens[i + 1]}` : null;
  if (pair && pair in table) return { value: table[pair]!, length: 2 };
  const word = tokens[i]!;
  return word in table ? { value: table[word]!, length: 1 } : null;
}

/**
 * Reads a background description for the five things a scene is made of: place, surface
 * material, colours (and whether they belong to the surface or the backdrop), lighting and
 * mood. Unknown words are ignored; the order of words only matters for colour roles.
 */
export function parsePrompt(prompt: string): ParsedPrompt {
  const tokens = tokenise(prompt);
  const parsed: ParsedPrompt = { place: null, material: null, colours: [], lighting: [], moods: [] };
  let pendingShade = 0;
  for (let i = 0; i < tokens.length; i++) {
    const word = tokens[i]!;
    const lighting = matchPhrase(tokens, i, LIGHTING);
    if (lighting && lighting.length === 2) {
      if (!parsed.lighting.includes(lighting.value)) parsed.lighting.push(lighting.value);
      i++;
      continue;
    }
    if (
      word in SHADE_MODIFIERS &&
      (tokens[i + 1]! in COLOURS || tokens[i + 1]! in MATERIALS || tokens[i + 1] === 'wood')
    ) {
      pendingShade = SHADE_MODIFIERS[word]!;
      continue;
    }
    if (word in COLOURS) {
      const next = tokens[i + 1];
      const qualifiesMaterial =
        next !== undefined && (next in MATERIALS || next === 'table' || next === 'surface' || next === 'floor');
      parsed.colours.push({
        word,
        rgb: shade(COLOURS[word]!, pendingShade),
        role: qualifiesMaterial ? 'surface' : 'backdrop',
      });
      pendingShade = 0;
      continue;
    }
    if (word in MATERIALS && !parsed.material) {
      const material = MATERIALS[word]!;
      const tone = pendingShade < 0 ? 'dark' : pendingShade > 0 ? 'light' : material.tone;
      parsed.material = { kind: material.kind, tone, word };
      pendingShade = 0;
      continue;
    }
    pendingShade = 0;
    if (word in PLACES && !parsed.place && !(word === 'studio' && tokens[i + 1]?.startsWith('light'))) {
      parsed.place = PLACES[word]!;
      continue;
    }
    if (lighting && !parsed.lighting.includes(lighting.value)) parsed.lighting.push(lighting.value);
    else if (word in MOODS && !parsed.moods.includes(MOODS[word]!)) parsed.moods.push(MOODS[word]!);
  }
  return parsed;
}
