import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import type { CoachCode } from '@prodshot/contracts';
import { realSetCases } from './real-set.js';

/**
 * The coach's bench set: each corpus cutout flattened onto white (a clean catalogue photo) and each
 * seller-like photo of the real set, as they are and spoiled the ways a seller's photo goes wrong.
 * A clean photo must raise none of the pixel warnings; a spoiled one must raise its own.
 */
export type CoachVariant = 'clean' | 'blurred' | 'dark' | 'bright' | 'tiny' | 'cut-off' | 'far';

export interface CoachCase {
  id: string;
  origin: 'corpus' | 'real';
  variant: CoachVariant;
  photo: Buffer;
  /** The warning the variant must raise; none for a clean photo. */
  expected: CoachCode | null;
}

export const PIXEL_VARIANTS: readonly CoachVariant[] = ['clean', 'blurred', 'dark', 'bright', 'tiny'];
export const PRODUCT_VARIANTS: readonly CoachVariant[] = ['cut-off', 'far'];

const EXPECTED: Record<CoachVariant, CoachCode | null> = {
  clean: null,
  blurred: 'blurry',
  dark: 'too_dark',
  bright: 'too_bright',
  tiny: 'low_resolution',
  'cut-off': 'product_cut_off',
  far: 'product_too_small',
};

/** Cutouts keep their transparency (PNG), as a seller would upload them; photos are JPEG. */
const encode = async (image: Sharp) => ((await image.clone().metadata()).hasAlpha ? image.png().toBuffer() : image.jpeg({ quality: 88 }).toBuffer());

/** One spoiled copy of a clean photo; `box` is the product's bounds in it (pixels). */
export async function spoil(clean: Buffer, variant: CoachVariant, box: { x: number; y: number; width: number; height: number }): Promise<Buffer> {
  const { width, height, hasAlpha } = await sharp(clean).metadata();
  const long = Math.max(width, height);
  // sRGB levels scaled and lifted, alpha left alone.
  const tone = (times: number, plus: number) => sharp(clean).linear(hasAlpha ? [times, times, times, 1] : [times, times, times], hasAlpha ? [plus, plus, plus, 0] : [plus, plus, plus]);
  switch (variant) {
    case 'clean':
      return clean;
    // Out of focus or shaken: a blur of 0.4% of the long side (4 px on a 1024 px photo).
    case 'blurred':
      return encode(sharp(clean).blur(Math.max(1, long / 250)));
    // About two and a half stops under.
    case 'dark':
      return encode(tone(0.18, 0));
    // About a stop and a half over, highlights blown.
    case 'bright':
      return encode(tone(2.2, 50));
    // A screenshot or a messaging app's copy: 360 px on the long side.
    case 'tiny':
      return encode(sharp(clean).resize(360, 360, { fit: 'inside' }));
    // The frame cuts off the product's right third.
    case 'cut-off': {
      const right = Math.round(box.x + box.width * 0.65);
      return encode(sharp(clean).extract({ left: 0, top: 0, width: Math.max(16, right), height }));
    }
    // Shot from across the room: the frame five times as wide and tall, the product the same size.
    case 'far': {
      const small = await sharp(clean).resize(Math.round(width / 5), Math.round(height / 5)).toBuffer();
      const padX = Math.round((width * 2) / 5), padY = Math.round((height * 2) / 5);
      return encode(sharp(small).extend({ left: padX, right: padX, top: padY, bottom: padY, extendWith: 'copy' }));
    }
  }
}

async function corpusBase(file: string): Promise<{ photo: Buffer; box: { x: number; y: number; width: number; height: number } }> {
  const source = await readFile(file);
  const { info } = await sharp(source).trim({ threshold: 0 }).toBuffer({ resolveWithObject: true });
  const photo = source;
  const box = { x: -(info.trimOffsetLeft ?? 0), y: -(info.trimOffsetTop ?? 0), width: info.width, height: info.height };
  return { photo, box };
}

/** Every case of the set, one at a time; `limit` takes the first products only (a quick look). */
export async function* coachCases(productFiles: readonly string[], variants: readonly CoachVariant[]): AsyncGenerator<CoachCase> {
  for (const file of productFiles) {
    const base = await corpusBase(file);
    for (const variant of variants) yield { id: `${basename(file)}:${variant}`, origin: 'corpus', variant, photo: await spoil(base.photo, variant, base.box), expected: EXPECTED[variant] };
  }
  for await (const real of realSetCases(productFiles)) {
    for (const variant of variants) yield { id: `${real.id}:${variant}`, origin: 'real', variant, photo: await spoil(real.photo, variant, real.box), expected: EXPECTED[variant] };
  }
}
