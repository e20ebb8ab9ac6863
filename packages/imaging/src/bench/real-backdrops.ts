import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { repoRoot } from '../corpus/corpus.js';
import { clamp } from '../local/cutout/mask-ops.js';
import type { RealBackground } from './real-set.js';

/** The real set's backdrops: a window of a real photograph, or a synthesised off-white sweep. */

export function realPhotosFolder(): string {
  return join(repoRoot(), 'bench', 'real-photos');
}

export interface Backdrop {
  rgb: Float32Array;
  width: number;
  height: number;
}

function sizeFor(aspect: number, longSide: number): { width: number; height: number } {
  return aspect >= 1 ? { width: longSide, height: Math.round(longSide / aspect) } : { width: Math.round(longSide * aspect), height: longSide };
}

/** A photograph: a random window of `aspect` (75–100% of the largest that fits), or the whole frame when `aspect` is null. */
export async function photoBackdrop(file: string, aspect: number | null, longSide: number, random: () => number): Promise<Backdrop> {
  const image = sharp(await readFile(file));
  const meta = await image.metadata();
  const sourceAspect = meta.width / meta.height;
  const target = sizeFor(aspect ?? sourceAspect, longSide);
  let pipeline = image;
  if (aspect !== null) {
    const zoom = 0.75 + 0.25 * random();
    const fitWidth = aspect >= sourceAspect ? meta.width : meta.height * aspect;
    const cropWidth = Math.round(fitWidth * zoom), cropHeight = Math.round((fitWidth * zoom) / aspect);
    const region = { left: Math.floor(random() * (meta.width - cropWidth + 1)), top: Math.floor(random() * (meta.height - cropHeight + 1)), width: cropWidth, height: cropHeight };
    pipeline = image.extract(region);
  }
  const data = await pipeline.resize(target.width, target.height, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  return { rgb: Float32Array.from(data), ...target };
}

/** An off-white seamless sweep: wall-to-floor gradient, a vignette and a faint paper texture. */
export async function sweepBackdrop(background: RealBackground, aspect: number, longSide: number, random: () => number): Promise<Backdrop> {
  const { width, height } = sizeFor(aspect, longSide);
  const paper = await sharp(await readFile(join(realPhotosFolder(), 'paper-white.jpg'))).greyscale().resize(width, height, { fit: 'cover' }).raw().toBuffer();
  let mean = 0;
  for (const v of paper) mean += v;
  mean /= paper.length;
  const tint = background.tint ?? [242, 240, 236];
  const curveAt = 0.35 + 0.25 * random(); // where the wall bends into the floor
  const wallShade = 0.9 + 0.04 * random(), side = (random() - 0.5) * 0.06;
  const vignette = 0.1 + 0.08 * random(), paperGain = 0.35 + 0.3 * random();
  const rgb = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const v = y / height;
    const t = clamp((v - curveAt + 0.2) / 0.4, 0, 1);
    const vertical = wallShade + (1 - wallShade) * t * t * (3 - 2 * t);
    for (let x = 0; x < width; x++) {
      const u = x / width, dx = u - 0.5, dy = v - 0.55;
      const shade = vertical * (1 + side * (u - 0.5) * 2) * (1 - vignette * (dx * dx + dy * dy) * 2.2);
      const grain = (paper[y * width + x]! - mean) * paperGain;
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) rgb[o + c] = tint[c]! * shade + grain;
    }
  }
  return { rgb, width, height };
}
