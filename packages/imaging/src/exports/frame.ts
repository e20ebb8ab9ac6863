import type { Box } from '../types.js';
import type { PlacementStyle } from '../local/scenes/scene-spec.js';

/** Largest share of the frame the product may take per scene placement (as the square shot's). */
const FILL: Record<PlacementStyle, { width: number; height: number }> = {
  catalog: { width: 0.8, height: 0.76 },
  centre: { width: 0.66, height: 0.6 },
  thirds: { width: 0.5, height: 0.56 },
};

export interface FrameLayout {
  /** The frame inside the square scene, in scene pixels. */
  window: Box;
  style: PlacementStyle;
  view: 'eye-level' | 'flat-lay' | 'seamless';
  /** Row of the scene (scene pixels) the product's base rests on. */
  floorY: number;
  lightAzimuth: number;
}

/**
 * The part of a square scene of side `size` a width × height frame shows: all of the scene's
 * height for portrait frames (sides trimmed), all of its width for landscape ones, centred. The
 * scene is wider than the frame, so the frame is cut from the background, never from the product.
 */
export function frameWindow(size: number, width: number, height: number): Box {
  const w = width >= height ? size : Math.round((size * width) / height);
  const h = height >= width ? size : Math.round((size * height) / width);
  return { x: Math.floor((size - w) / 2), y: Math.floor((size - h) / 2), width: w, height: h };
}

/** Scale of a product of the given size so it fits the window under the scene's placement rule. */
export function frameScale(productWidth: number, productHeight: number, layout: FrameLayout): number {
  const { window, style, view, floorY } = layout;
  const fill = FILL[style];
  const margin = marginOf(window);
  const standing = view !== 'flat-lay' && style !== 'catalog';
  const headroom = standing ? floorY - window.y - margin : window.height - 2 * margin;
  return Math.min(
    (fill.width * window.width) / productWidth,
    (fill.height * window.height) / productHeight,
    headroom / productHeight,
  );
}

/** Where a product of the given (already scaled) size lands: always inside the window with a margin. */
export function framePosition(width: number, height: number, layout: FrameLayout): Box {
  const { window, style, view, floorY, lightAzimuth } = layout;
  const margin = marginOf(window);
  let centreX = window.x + window.width / 2;
  if (style === 'thirds') centreX = window.x + (lightAzimuth <= 0 ? (window.width * 2) / 3 : window.width / 3);
  let top: number;
  if (view === 'flat-lay') top = window.y + (window.height - height) / 2;
  else if (style === 'catalog') top = window.y + (window.height - height) / 2 - window.height * 0.03;
  else top = floorY - height;
  const x = Math.round(clampInto(centreX - width / 2, window.x + margin, window.x + window.width - margin - width));
  const y = Math.round(clampInto(top, window.y + margin, window.y + window.height - margin - height));
  return { x, y, width, height };
}

/**
 * Size and place of a product on a plain frame (white or transparent) so its longer relative side
 * takes `fill` of the frame, centred: Amazon asks ≥ 85%, and the rest is margin on every side.
 */
export function fillFrame(
  productWidth: number,
  productHeight: number,
  frameWidth: number,
  frameHeight: number,
  fill: number,
): Box {
  const scale = Math.min((fill * frameWidth) / productWidth, (fill * frameHeight) / productHeight);
  const width = Math.max(1, Math.round(productWidth * scale)),
    height = Math.max(1, Math.round(productHeight * scale));
  return { x: Math.round((frameWidth - width) / 2), y: Math.round((frameHeight - height) / 2), width, height };
}

function marginOf(window: Box): number {
  return Math.round(Math.min(window.width, window.height) * 0.04);
}

function clampInto(value: number, min: number, max: number): number {
  if (max < min) return (min + max) / 2;
  return Math.min(Math.max(value, min), max);
}
