import sharp from 'sharp';
import { grain } from './noise.js';
import { renderScene } from './render-scene.js';
import type { RenderedScene } from './render-scene.js';
import type { SceneSpec } from './scene-spec.js';

export interface SceneImage extends Omit<RenderedScene, 'rgb'> {
  /** RGB, 8 bits, size × size. */
  rgb: Buffer;
}

/** Recently rendered backgrounds: a smart flow renders the same scene for several products. */
const cache = new Map<string, Promise<SceneImage>>();
const CACHE_ENTRIES = 6;

/** The scene at shot size: rendered at half size, enlarged, then given full-resolution grain. */
async function render(spec: SceneSpec, size: number, seed: number): Promise<SceneImage> {
  const half = Math.ceil(size / 2);
  const scene = renderScene(spec, half, seed);
  const rgb = await sharp(Buffer.from(scene.rgb.buffer), { raw: { width: half, height: half, channels: 3 } })
    .resize(size, size, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  // Fine grain after enlarging keeps smooth gradients from banding and hides the upscale.
  const clamped = new Uint8ClampedArray(rgb.buffer, rgb.byteOffset, rgb.length);
  for (let y = 0, o = 0; y < size; y++) {
    for (let x = 0; x < size; x++, o += 3) {
      const g = grain(x, y, seed) * 3;
      clamped[o] = clamped[o]! + g;
      clamped[o + 1] = clamped[o + 1]! + g;
      clamped[o + 2] = clamped[o + 2]! + g;
    }
  }
  const factor = size / half;
  return {
    rgb,
    size,
    horizonY: scene.horizonY * factor,
    floorY: scene.floorY * factor,
    floorColour: scene.floorColour,
  };
}

export function sceneImage(spec: SceneSpec, size: number, seed: number): Promise<SceneImage> {
  const key = `${JSON.stringify(spec)}|${size}|${seed}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const pending = render(spec, size, seed);
  cache.set(key, pending);
  pending.catch(() => cache.delete(key));
  while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return pending;
}
