import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import sharp from 'sharp';
import type { ImageModel } from '../types.js';
import { alphaOf, fidelity, iou, iouSummary, mean, median, pad, peakRssMb, round, timed } from './bench-measures.js';

/** The backdrops the issue names: white, grey, a colour and a soft gradient. */
const BACKDROPS: Record<string, (width: number, height: number) => Buffer> = {
  white: (w, h) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#ffffff"/></svg>`),
  grey: (w, h) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#9e9e9e"/></svg>`),
  pink: (w, h) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#f4c2c2"/></svg>`),
  gradient: (w, h) =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g" x1="0" y1="0" x2="0.4" y2="1"><stop offset="0" stop-color="#f6f1ea"/><stop offset="1" stop-color="#c9d3de"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
    ),
};

interface Row {
  product: string;
  backdrop: string;
  iou: number;
  deltaE: number;
  cutoutMs: number;
}

export async function flatten(product: Buffer, width: number, height: number, backdrop: string): Promise<Buffer> {
  return sharp(BACKDROPS[backdrop]!(width, height)).composite([{ input: product }]).removeAlpha().png({ compressionLevel: 1 }).toBuffer();
}

export async function runFlat(model: ImageModel, files: string[]) {
  const rows: Row[] = [];
  console.log(`\nflat set: corpus cutouts flattened onto plain backdrops\n${'product'.padEnd(32)} ${'backdrop'.padEnd(9)} ${'IoU'.padStart(7)} ${'ΔE2000'.padStart(7)} ${'cutout'.padStart(8)}`);
  for (const file of files) {
    const product = await readFile(file);
    const { width, height } = await sharp(product).metadata();
    const truth = await alphaOf(product);
    for (const backdrop of Object.keys(BACKDROPS)) {
      const input = await flatten(product, width, height, backdrop);
      const cutout = await timed(() => model.removeBackground(input));
      const normalised = await sharp(cutout.value).metadata();
      // As the worker does: every shot of an upload starts from its one cutout.
      const shot = await model.generate({ cutout: cutout.value, template: 'studio', seed: 1 });
      const row = {
        product: basename(file),
        backdrop,
        iou: await iou(truth, cutout.value),
        deltaE: await fidelity(input, truth, shot.image, shot.placement!, width / normalised.width),
        cutoutMs: Math.round(cutout.ms),
      };
      rows.push(row);
      console.log(`${row.product.padEnd(32)} ${backdrop.padEnd(9)} ${row.iou.toFixed(4).padStart(7)} ${row.deltaE.toFixed(3).padStart(7)} ${pad(`${row.cutoutMs} ms`, 8)}`);
    }
  }
  const ious = rows.map((r) => r.iou);
  const worst = rows.find((r) => r.iou === Math.min(...ious))!;
  const summary = {
    ...iouSummary(rows, (r) => r.iou, (r) => `${r.product} on ${r.backdrop}`),
    meanDeltaE2000: round(mean(rows.map((r) => r.deltaE)), 3),
    cutoutMsMedian: Math.round(median(rows.map((r) => r.cutoutMs))),
    peakRssMb: peakRssMb(),
  };
  return { rows, worst, summary };
}
