/** sRGB colour, 0..255 per channel. */
export type Rgb = readonly [number, number, number];

/** What is behind the product: rendered soft, as a lens at product distance would see it. */
export type WallKind = 'sweep' | 'plain' | 'room' | 'sky' | 'tiles' | 'brick' | 'blobs';

/** What the product stands on. */
export type SurfaceKind = 'wood' | 'marble' | 'concrete' | 'silk' | 'paper' | 'sand' | 'linen' | 'grass' | 'none';

export interface WallSpec {
  kind: WallKind;
  /** Top to bottom (sky, sweep) or the palette the pattern draws from (blobs, room). */
  colours: Rgb[];
}

export interface SurfaceSpec {
  kind: SurfaceKind;
  base: Rgb;
  /** Grain, veins, folds or seams. */
  accent: Rgb;
  /** Strength of mirror reflections, 0 (matte) .. 1. */
  gloss: number;
}

export interface LightSpec {
  /** Where the key light comes from: −1 left .. 1 right; shadows fall the other way. */
  azimuth: number;
  /** −1 cool/blue .. 1 warm/golden. */
  warmth: number;
  /** Overall exposure, 1 = neutral. */
  key: number;
  /** 0 hard, crisp shadows .. 1 very soft, diffuse light. */
  softness: number;
  /** Strength of the pool of light behind the product, 0..1. */
  spot: number;
}

export type PlacementStyle = 'catalog' | 'thirds' | 'centre';

export interface SceneSpec {
  /** Stable identifier of the look, e.g. 'marble' or 'beach'. */
  id: string;
  description: string;
  wall: WallSpec;
  surface: SurfaceSpec;
  /** 'eye-level' has a wall and a receding surface; 'flat-lay' looks straight down on the surface. */
  view: 'eye-level' | 'flat-lay' | 'seamless';
  /** Height of the line where surface meets wall, as a share of the frame (eye-level only). */
  horizon: number;
  light: LightSpec;
  placement: PlacementStyle;
  /** Darkening of the frame's corners, 0..1. */
  vignette: number;
  /** Scene props the renderer knows: a low sun over the sea, decorative paper cut-outs. */
  props: ReadonlyArray<'sun' | 'sea' | 'paper-cutouts' | 'window-light' | 'bokeh' | 'pendant-lights'>;
}
