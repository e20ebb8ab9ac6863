import sharp from 'sharp';
import { boundingBox, clamp, dilate } from '../local/cutout/mask-ops.js';
import type { Box } from '../types.js';

export interface ProductLayer {
  rgba: Buffer;
  width: number;
  height: number;
}

/**
 * The product trimmed to its alpha bounds and scaled so its longest side is `longSide` (fitting the
 * frame). Some corpus cutouts carry a studio shadow in their alpha (soft, below 128, well away from
 * the product); it is dropped, keeping only the product's own anti-aliased edge, and the photo gets
 * its own shadow instead.
 */
export async function productLayer(png: Buffer, longSide: number, frameWidth: number, frameHeight: number): Promise<ProductLayer> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const solid = new Uint8Array(info.width * info.height);
  for (let p = 0; p < solid.length; p++) solid[p] = data[p * 4 + 3]! >= 128 ? 1 : 0;
  const edge = 4;
  const near = dilate(solid, info.width, info.height, edge);
  for (let p = 0; p < near.length; p++) if (!near[p]) data[p * 4 + 3] = 0;
  const found = boundingBox(data, info.width, info.height, 128, 4, 3);
  if (!found) throw new Error('the product cutout has no opaque pixels');
  const left = Math.max(0, found.x - edge), top = Math.max(0, found.y - edge);
  const bounds = { left, top, width: Math.min(info.width, found.x + found.width + edge) - left, height: Math.min(info.height, found.y + found.height + edge) - top };
  const scale = Math.min(longSide / Math.max(found.width, found.height), (frameWidth - 8) / bounds.width, (frameHeight - 8) / bounds.height);
  const width = Math.max(1, Math.round(bounds.width * scale)), height = Math.max(1, Math.round(bounds.height * scale));
  const rgba = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .extract(bounds)
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  return { rgba, width, height };
}

/**
 * The product's silhouette laid on the floor behind it (squashed and sheared away from a light in
 * front) and blurred, plus a contact shadow: its lowest rows flattened onto the base line, so half
 * of it shows below the product. Both darken the backdrop; neither is part of the truth. Returns how
 * much each pixel was darkened (0..1), so a bench can tell shadow pixels from the floor's own.
 */
export function castShadow(rgb: Float32Array, width: number, height: number, cut: ProductLayer, box: Box, random: () => number): Float32Array {
  const squash = 0.22 + 0.2 * random(), shear = (random() - 0.5) * 1.2;
  const strength = 0.3 + 0.2 * random(), contactStrength = 0.45 + 0.2 * random();
  let base = cut.height - 1;
  while (base > 0 && !rowHasAlpha(cut, base)) base--;
  const floorY = box.y + base;
  const cast = new Uint8Array(width * height), contact = new Uint8Array(width * height);
  const contactBand = Math.max(2, Math.round(cut.height * 0.08));
  for (let y = 0; y <= base; y++) {
    const rise = base - y;
    const sy = Math.round(floorY - rise * squash);
    if (sy < 0 || sy >= height) continue;
    const shift = rise * shear;
    for (let x = 0; x < cut.width; x++) {
      const a = cut.rgba[(y * cut.width + x) * 4 + 3]!;
      if (a < 64) continue;
      const sx = Math.round(box.x + x + shift);
      if (sx >= 0 && sx < width) cast[sy * width + sx] = 255;
      if (rise <= contactBand) contact[sy * width + box.x + x] = 255;
    }
  }
  const longSide = Math.max(cut.width, cut.height);
  const castBlur = blur(cast, width, height, Math.max(2, longSide * (0.02 + 0.02 * random())));
  const contactBlur = blur(contact, width, height, Math.max(2, longSide * 0.012));
  const darkening = new Float32Array(width * height);
  for (let p = 0; p < width * height; p++) {
    const dark = 1 - Math.min(0.85, (castBlur[p]! / 255) * strength + (contactBlur[p]! / 255) * contactStrength);
    if (dark >= 1) continue;
    darkening[p] = 1 - dark;
    const o = p * 3;
    rgb[o] = rgb[o]! * dark;
    rgb[o + 1] = rgb[o + 1]! * dark;
    rgb[o + 2] = rgb[o + 2]! * dark;
  }
  return darkening;
}

function rowHasAlpha(cut: ProductLayer, y: number): boolean {
  for (let x = 0; x < cut.width; x++) if (cut.rgba[(y * cut.width + x) * 4 + 3]! >= 64) return true;
  return false;
}

/** A separable box blur run three times: close to a Gaussian of `sigma`, in place of a sharp round trip. */
function blur(values: Uint8Array, width: number, height: number, sigma: number): Float32Array {
  const radius = Math.max(1, Math.round((Math.sqrt((12 * sigma * sigma) / 3 + 1) - 1) / 2));
  const a = Float32Array.from(values);
  const b = new Float32Array(a.length);
  for (let pass = 0; pass < 3; pass++) {
    boxPass(a, b, width, height, radius, 1, width); // rows
    boxPass(b, a, height, width, radius, width, 1); // columns
  }
  return a;
}

/** One box pass along lines of `length` samples `step` apart; lines start `lineStep` apart. */
function boxPass(from: Float32Array, to: Float32Array, length: number, lines: number, radius: number, step: number, lineStep: number): void {
  const span = 2 * radius + 1;
  for (let line = 0; line < lines; line++) {
    const start = line * lineStep;
    let sum = 0;
    for (let i = -radius; i <= radius; i++) sum += from[start + clamp(i, 0, length - 1) * step]!;
    for (let i = 0; i < length; i++) {
      to[start + i * step] = sum / span;
      sum += from[start + Math.min(length - 1, i + radius + 1) * step]! - from[start + Math.max(0, i - radius) * step]!;
    }
  }
}
