import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { differenceCiede2000 } from 'culori';
import sharp from 'sharp';
import { corpusFiles, corpusFolder, repoRoot } from '../corpus/corpus.js';
import { erode } from '../local/cutout/mask-ops.js';
import { LocalImageModel } from '../local/local-model.js';
import type { Placement } from '../types.js';

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

const SPEED_RUNS = 9;
const deltaE = differenceCiede2000();

interface Row {
  product: string;
  backdrop: string;
  iou: number;
  deltaE: number;
}

async function flatten(product: Buffer, width: number, height: number, backdrop: string): Promise<Buffer> {
  return sharp(BACKDROPS[backdrop]!(width, height)).composite([{ input: product }]).removeAlpha().png({ compressionLevel: 1 }).toBuffer();
}

async function alphaOf(png: Buffer): Promise<Buffer> {
  return sharp(png).ensureAlpha().extractChannel(3).raw().toBuffer();
}

function iou(truth: Buffer, found: Buffer): number {
  let both = 0, either = 0;
  for (let p = 0; p < truth.length; p++) {
    const t = truth[p]! >= 128, f = found[p]! >= 128;
    if (t && f) both++;
    if (t || f) either++;
  }
  return either ? both / either : 1;
}

const toRgb = (data: Buffer, i: number) => ({ mode: 'rgb' as const, r: data[i]! / 255, g: data[i + 1]! / 255, b: data[i + 2]! / 255 });

/**
 * Mean ΔE2000 between the input and the shot over the eroded product interior, after undoing
 * the placement: the input region the engine reports is resized to where it says it landed.
 */
async function fidelity(input: Buffer, product: Buffer, shot: Buffer, placement: Placement): Promise<number> {
  const { sourceBox, box } = placement;
  const region = { left: sourceBox.x, top: sourceBox.y, width: sourceBox.width, height: sourceBox.height };
  const expected = await sharp(input).extract(region).resize(box.width, box.height).removeAlpha().raw().toBuffer();
  const alpha = await sharp(product).extract(region).resize(box.width, box.height).extractChannel(3).raw().toBuffer();
  const interior = erode(Uint8Array.from(alpha, (a) => (a === 255 ? 1 : 0)), box.width, box.height, 3);
  const actual = await sharp(shot).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let sum = 0, count = 0;
  for (let y = 0; y < box.height; y += 2) {
    const sy = box.y + y;
    if (sy < 0 || sy >= actual.info.height) continue;
    for (let x = 0; x < box.width; x += 2) {
      const sx = box.x + x;
      if (sx < 0 || sx >= actual.info.width || !interior[y * box.width + x]) continue;
      sum += deltaE(toRgb(expected, (y * box.width + x) * 3), toRgb(actual.data, (sy * actual.info.width + sx) * 3));
      count++;
    }
  }
  return count ? sum / count : 0;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const files = corpusFiles('products')?.filter((f) => f.endsWith('.png'));
  if (!files) {
    console.error(`bench skipped: corpus folder ${corpusFolder('products')} is absent`);
    process.exit(1);
  }
  const model = new LocalImageModel();
  const rows: Row[] = [];
  console.log(`${'product'.padEnd(32)} ${'backdrop'.padEnd(9)} ${'IoU'.padStart(7)} ${'ΔE2000'.padStart(7)}`);
  for (const file of files) {
    const product = await readFile(file);
    const { width, height } = await sharp(product).metadata();
    const truth = await alphaOf(product);
    for (const backdrop of Object.keys(BACKDROPS)) {
      const input = await flatten(product, width, height, backdrop);
      const cutout = await model.removeBackground(input);
      const shot = await model.generate({ image: input, template: 'studio', seed: 1 });
      const row = {
        product: basename(file),
        backdrop,
        iou: iou(truth, await alphaOf(cutout)),
        deltaE: await fidelity(input, product, shot.image, shot.placement!),
      };
      rows.push(row);
      console.log(`${row.product.padEnd(32)} ${backdrop.padEnd(9)} ${row.iou.toFixed(4).padStart(7)} ${row.deltaE.toFixed(3).padStart(7)}`);
    }
  }

  // Speed: a 1024 px styled shot from a 2160 px photo; a new seed each run so no scene is cached.
  const speedFile = files.find((f) => basename(f) === 'saleor-dash-force-1.png') ?? files[0]!;
  const speedProduct = await readFile(speedFile);
  const meta = await sharp(speedProduct).metadata();
  const speedInput = await flatten(speedProduct, meta.width, meta.height, 'white');
  const times: number[] = [];
  for (let run = 0; run < SPEED_RUNS; run++) {
    const started = performance.now();
    await model.generate({ image: speedInput, template: 'marble', seed: 1000 + run, size: 1024 });
    times.push(performance.now() - started);
  }

  const ious = rows.map((r) => r.iou);
  const summary = {
    meanIoU: round(ious.reduce((a, b) => a + b, 0) / ious.length, 4),
    worstIoU: round(Math.min(...ious), 4),
    worstIoUCase: rows.find((r) => r.iou === Math.min(...ious)),
    meanDeltaE2000: round(rows.reduce((a, r) => a + r.deltaE, 0) / rows.length, 3),
    shotMsMedian: Math.round(median(times)),
    shotMsRuns: times.map(Math.round),
    shotInput: `${basename(speedFile)} ${meta.width}×${meta.height} PNG on white, template marble, 1024 px PNG out`,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    rows,
  };
  console.log(`\nmean IoU ${summary.meanIoU}  worst IoU ${summary.worstIoU}  mean ΔE2000 ${summary.meanDeltaE2000}`);
  console.log(`shot median ${summary.shotMsMedian} ms (runs ${summary.shotMsRuns.join(', ')})  peak RSS ${summary.peakRssMb} MB`);
  const out = join(repoRoot(), 'bench');
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'imaging.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`wrote ${join(out, 'imaging.json')}`);
}

function round(value: number, digits: number): number {
  return Math.round(value * 10 ** digits) / 10 ** digits;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
