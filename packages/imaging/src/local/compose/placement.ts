import type { Box } from '../../types.js';
import type { PlacementStyle } from '../scenes/scene-spec.js';

export interface PlacementInput {
  /** Size of the trimmed product in source pixels. */
  productWidth: number;
  productHeight: number;
  /** Square shot side. */
  size: number;
  style: PlacementStyle;
  /** Row the product's base rests on, as a share of the frame. */
  floor: number;
  /** Where the key light comes from (−1 left .. 1 right); lifestyle puts the product opposite it. */
  lightAzimuth: number;
  view: 'eye-level' | 'flat-lay' | 'seamless';
}

export interface PlacementResult {
  /** Where the product lands in the shot, in shot pixels. */
  box: Box;
  /** Shot pixels per source pixel. */
  scale: number;
}

/** Largest share of the frame the product may take, per style: catalog fills, lifestyle leaves room. */
const FILL: Record<PlacementStyle, { width: number; height: number }> = {
  catalog: { width: 0.8, height: 0.76 },
  centre: { width: 0.66, height: 0.6 },
  thirds: { width: 0.5, height: 0.56 },
};

/**
 * Scales and places the product: catalog shots centre and fill the frame, lifestyle shots sit
 * the product on a rule-of-thirds line away from the light, table scenes rest it on the
 * surface. The box always stays inside the frame with a margin, so nothing is cut off.
 */
export function placeProduct(input: PlacementInput): PlacementResult {
  const { size, productWidth: w, productHeight: h } = input;
  const fill = FILL[input.style];
  const margin = Math.round(size * 0.04);
  const floorY = input.floor * size;
  // Standing products must fit between the top margin and the floor line.
  const headroom = input.view === 'flat-lay' || input.style === 'catalog' ? size - 2 * margin : floorY - margin;
  const scale = Math.min((fill.width * size) / w, (fill.height * size) / h, headroom / h);
  const width = Math.max(1, Math.round(w * scale));
  const height = Math.max(1, Math.round(h * scale));
  return { box: positionBox(width, height, input), scale };
}

/** Position of a product of the given shot size under the same rules as placeProduct. */
export function positionBox(width: number, height: number, input: PlacementInput): Box {
  const { size } = input;
  const margin = Math.round(size * 0.04);
  const floorY = input.floor * size;
  let centreX = size / 2;
  if (input.style === 'thirds') centreX = input.lightAzimuth <= 0 ? (size * 2) / 3 : size / 3;
  let top: number;
  if (input.view === 'flat-lay') top = (size - height) / 2;
  else if (input.style === 'catalog') top = (size - height) / 2 - size * 0.03;
  else top = floorY - height;

  const x = Math.round(clampInto(centreX - width / 2, margin, size - margin - width));
  const y = Math.round(clampInto(top, margin, size - margin - height));
  return { x, y, width, height };
}

function clampInto(value: number, min: number, max: number): number {
  if (max < min) return (min + max) / 2;
  return Math.min(Math.max(value, min), max);
}
