import sharp from 'sharp';
import type { OverlayOptions } from 'sharp';
import type { Box } from '../../types.js';
import { boundingBox } from '../cutout/mask-ops.js';
import type { SceneImage } from '../scenes/scene-image.js';
import type { SceneSpec } from '../scenes/scene-spec.js';

export interface ProductLayer {
  /** RGBA at exactly box.width × box.height, transparent around the product. */
  rgba: Buffer;
  /** Where the layer lies in the shot; always inside the frame. */
  box: Box;
  /** The opaque product's own bounds in the shot: shadows and reflections hang off its base. */
  bounds: Box;
}

/** Shadows are drawn at a quarter of the shot size: they are soft, so nothing is lost. */
const SHADOW_SCALE = 4;

/** Product alpha (0..1) averaged into the quarter-size shadow grid. */
function coarseAlpha(product: ProductLayer, n: number): Float32Array {
  const out = new Float32Array(n * n);
  const { rgba, box } = product;
  const weight = 1 / (255 * SHADOW_SCALE * SHADOW_SCALE);
  for (let y = 0; y < box.height; y++) {
    const qy = ((box.y + y) / SHADOW_SCALE) | 0;
    if (qy >= n) break;
    for (let x = 0; x < box.width; x++) {
      const qx = ((box.x + x) / SHADOW_SCALE) | 0;
      if (qx < n) out[qy * n + qx]! += rgba[(y * box.width + x) * 4 + 3]! * weight;
    }
  }
  return out;
}

/**
 * Paints the silhouette squashed toward the base line (and leaned sideways): a squash of ~16
 * gives the dark contact line where the product touches the floor, ~7 the soft ambient pool,
 * and a mild squash leaning away from the light the cast shadow behind it.
 */
function projectSilhouette(
  alpha: Float32Array,
  n: number,
  base: number,
  squash: number,
  lean: number,
  mirror: boolean,
  out: Float32Array,
): void {
  for (let y = 0; y < n; y++) {
    // Pools are mirrored about the base line so they also show on the floor in front of the product.
    const above = mirror ? Math.abs(base - y) : base - y;
    if (above < 0) continue;
    const sourceY = Math.round(base - above * squash);
    if (sourceY < 0 || sourceY >= n) continue;
    const shift = Math.round(lean * above * squash);
    for (let x = 0; x < n; x++) {
      const sx = x - shift;
      if (sx < 0 || sx >= n) continue;
      const a = alpha[sourceY * n + sx]!;
      if (a > 0) out[y * n + x] = Math.max(out[y * n + x]!, a);
    }
  }
}

async function blurPlane(plane: Float32Array, n: number, sigma: number): Promise<Float32Array> {
  const bytes = Buffer.alloc(plane.length);
  for (let p = 0; p < plane.length; p++) bytes[p] = plane[p]! >= 1 ? 255 : plane[p]! * 255 + 0.5;
  const blurred = await sharp(bytes, { raw: { width: n, height: n, channels: 1 } })
    .blur(Math.max(0.3, sigma))
    .extractChannel(0)
    .raw()
    .toBuffer();
  const out = new Float32Array(blurred.length);
  for (let p = 0; p < blurred.length; p++) out[p] = blurred[p]! / 255;
  return out;
}

/** Contact, ambient and cast shadows as one RGBA layer in the floor's own darkened colour. */
async function shadowLayer(product: ProductLayer, scene: SceneImage, spec: SceneSpec): Promise<Buffer> {
  const n = Math.ceil(scene.size / SHADOW_SCALE);
  const alpha = coarseAlpha(product, n);
  const base = (product.bounds.y + product.bounds.height) / SHADOW_SCALE - 0.5;
  const h = product.bounds.height / SHADOW_SCALE;
  const { softness, azimuth } = spec.light;
  const contact = new Float32Array(n * n),
    ambient = new Float32Array(n * n),
    cast = new Float32Array(n * n);
  if (spec.view === 'flat-lay') {
    cast.set(alpha);
    const dx = Math.round(-azimuth * n * 0.012),
      dy = Math.round(n * 0.014);
    const shifted = new Float32Array(n * n);
    for (let y = Math.max(0, dy); y < n; y++)
      for (let x = Math.max(0, dx); x < Math.min(n, n + dx); x++) shifted[y * n + x] = cast[(y - dy) * n + (x - dx)]!;
    const soft = await blurPlane(shifted, n, n * (0.006 + softness * 0.01));
    return toLayer([{ plane: soft, strength: 0.42 }], n, scene);
  }
  projectSilhouette(alpha, n, base, 16, 0, true, contact);
  projectSilhouette(alpha, n, base, 7, 0, true, ambient);
  projectSilhouette(alpha, n, base, 1 / 0.28, azimuth * -0.6, false, cast);
  const [c, a, k] = await Promise.all([
    blurPlane(contact, n, Math.max(0.6, h * 0.012)),
    blurPlane(ambient, n, h * 0.07 + 1.5),
    blurPlane(cast, n, h * (0.03 + softness * 0.06) + 1),
  ]);
  return toLayer(
    [
      { plane: c, strength: 0.6 },
      { plane: a, strength: 0.3 },
      { plane: k, strength: 0.2 * (1.2 - softness * 0.5) },
    ],
    n,
    scene,
  );
}

/** Combines shadow planes (as light blocked: 1 − Π(1 − s)) into RGBA tinted by the floor. */
function toLayer(planes: { plane: Float32Array; strength: number }[], n: number, scene: SceneImage): Buffer {
  const tint = scene.floorColour.map((v) => v * 0.22);
  const out = Buffer.alloc(n * n * 4);
  for (let p = 0; p < n * n; p++) {
    let through = 1;
    for (const { plane, strength } of planes) through *= 1 - plane[p]! * strength;
    out[p * 4] = tint[0]!;
    out[p * 4 + 1] = tint[1]!;
    out[p * 4 + 2] = tint[2]!;
    out[p * 4 + 3] = Math.round(Math.min(0.85, 1 - through) * 255);
  }
  return out;
}

/** A mirrored, fading copy of the product below its base, for glossy surfaces. */
function reflectionLayer(product: ProductLayer, size: number, gloss: number): OverlayOptions | null {
  const { rgba, box, bounds } = product;
  const baseRow = bounds.y + bounds.height - box.y;
  const top = box.y + baseRow;
  const reach = Math.min(Math.round(bounds.height * 0.35), size - top, baseRow);
  if (gloss <= 0 || reach < 4) return null;
  const out = Buffer.alloc(box.width * reach * 4);
  for (let r = 0; r < reach; r++) {
    const fade = gloss * (1 - r / reach) ** 2;
    const src = (baseRow - 1 - r) * box.width * 4;
    for (let x = 0; x < box.width; x++) {
      const o = (r * box.width + x) * 4;
      out[o] = rgba[src + x * 4]!;
      out[o + 1] = rgba[src + x * 4 + 1]!;
      out[o + 2] = rgba[src + x * 4 + 2]!;
      out[o + 3] = Math.round(rgba[src + x * 4 + 3]! * fade);
    }
  }
  return { input: out, raw: { width: box.width, height: reach, channels: 4 }, left: box.x, top };
}

/**
 * The shadow layer enlarged to shot scale, limited to where it has any opacity: compositing and
 * resampling a full-frame layer that is transparent almost everywhere was a third of a render.
 * Two transparent cells are kept around it, the reach of the cubic kernel, so the crop enlarges
 * to exactly the pixels the whole layer would.
 */
export async function shadowOverlay(layer: Buffer, n: number, size: number): Promise<OverlayOptions | null> {
  const shaded = boundingBox(layer, n, n, 1, 4, 3);
  if (!shaded) return null;
  const reach = 2;
  const x = Math.max(0, shaded.x - reach),
    y = Math.max(0, shaded.y - reach);
  const region = {
    left: x,
    top: y,
    width: Math.min(n, shaded.x + shaded.width + reach) - x,
    height: Math.min(n, shaded.y + shaded.height + reach) - y,
  };
  const left = x * SHADOW_SCALE,
    top = y * SHADOW_SCALE;
  const width = Math.min(region.width * SHADOW_SCALE, size - left),
    height = Math.min(region.height * SHADOW_SCALE, size - top);
  const input = await sharp(layer, { raw: { width: n, height: n, channels: 4 } })
    .extract(region)
    .resize(region.width * SHADOW_SCALE, region.height * SHADOW_SCALE, { kernel: 'cubic' })
    .extract({ left: 0, top: 0, width, height })
    .raw()
    .toBuffer();
  return { input, raw: { width, height, channels: 4 }, left, top };
}

/** Background, shadows, reflection and the untouched product pixels, composited into raw pixels. */
export async function composeShot(
  scene: SceneImage,
  spec: SceneSpec,
  product: ProductLayer,
): Promise<{ data: Buffer; channels: 3 | 4 }> {
  const n = Math.ceil(scene.size / SHADOW_SCALE);
  const layers: OverlayOptions[] = [];
  const shadow = await shadowOverlay(await shadowLayer(product, scene, spec), n, scene.size);
  if (shadow) layers.push(shadow);
  const reflection = spec.view === 'flat-lay' ? null : reflectionLayer(product, scene.size, spec.surface.gloss);
  if (reflection) layers.push(reflection);
  layers.push({
    input: product.rgba,
    raw: { width: product.box.width, height: product.box.height, channels: 4 },
    left: product.box.x,
    top: product.box.y,
  });
  const { data, info } = await sharp(scene.rgb, { raw: { width: scene.size, height: scene.size, channels: 3 } })
    .composite(layers)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, channels: info.channels === 4 ? 4 : 3 };
}
