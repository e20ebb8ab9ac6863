import { mkdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import type { OverlayOptions } from 'sharp';
import { PROMPT_CHIPS, TEMPLATES } from '@prodshot/contracts';
import { REAL_BACKGROUNDS, makeRealCase } from '../bench/real-set.js';
import { corpusDir, corpusFiles, corpusFolder, repoRoot } from '../corpus/corpus.js';
import { cliEngine, describeFailure } from './cli-engine.js';

/** Three products that differ in shape and colour: wide shoe, tall pair of bottles, eyewear. */
const PRODUCTS = ['saleor-dash-force-1.png', 'solidus_bottles_1.png', 'saleor-sunnies-dark.png'];
/** Seller-like photos from the bench's `real` set: a surface, a sweep and two busy rooms (cut out with their tap). */
const REAL_PHOTOS = [
  { product: 'saleor-apple-drink.png', background: 'wood' },
  { product: 'saleor-white-plimsolls-2.png', background: 'sweep-cool' },
  { product: 'saleor-dash-force-1.png', background: 'room-lounge' },
  { product: 'solidus_bottles_1.png', background: 'room-fig-plate' },
];
/** The templates shown for each real photo, after the photo itself. */
const REAL_TEMPLATES = ['studio', 'lightwood', 'marble', 'lifestyle', 'pastel-gradient'] as const;
const TILE = 320;
const LABEL = 28;

function label(text: string): Buffer {
  const safe = text.replace(/[<>&]/g, '');
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${TILE}" height="${LABEL}"><rect width="100%" height="100%" fill="#111"/><text x="8" y="19" font-family="sans-serif" font-size="15" fill="#eee">${safe}</text></svg>`);
}

/** The photo as given, letterboxed into a tile, with the seller's tap marked when there is one. */
async function photoTile(photo: Buffer, width: number, height: number, tap: { x: number; y: number } | null): Promise<Buffer> {
  const scale = Math.min(TILE / width, TILE / height);
  const w = Math.round(width * scale), h = Math.round(height * scale);
  const left = Math.floor((TILE - w) / 2), top = Math.floor((TILE - h) / 2);
  const marker = tap
    ? `<circle cx="${left + tap.x * w}" cy="${top + tap.y * h}" r="9" fill="none" stroke="#ff2bd6" stroke-width="3"/><circle cx="${left + tap.x * w}" cy="${top + tap.y * h}" r="2.5" fill="#ff2bd6"/>`
    : '';
  return sharp({ create: { width: TILE, height: TILE, channels: 3, background: '#222' } })
    .composite([
      { input: await sharp(photo).resize(w, h).png().toBuffer(), left, top },
      { input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${TILE}" height="${TILE}">${marker}</svg>`), left: 0, top: 0 },
    ])
    .png()
    .toBuffer();
}

/**
 * Every template and prompt chip on three corpus products, then real-set photos (the photo, then a
 * few templates made from it), in one PNG under bench/out/, made by the worker's engine.
 */
async function main(): Promise<void> {
  const files = corpusFiles('products');
  if (!corpusDir('products')) throw new Error(`corpus folder ${corpusFolder('products')} is absent`);
  const model = await cliEngine();
  const columns = [...TEMPLATES.map((t) => ({ title: t.name, template: t.handle, prompt: undefined })), ...PROMPT_CHIPS.map((p) => ({ title: `“${p}”`, template: undefined, prompt: p }))];
  const tiles: OverlayOptions[] = [];
  for (const [row, name] of PRODUCTS.entries()) {
    const file = files.find((f) => basename(f) === name);
    if (!file) throw new Error(`${name} missing from the corpus`);
    // Seller photos have backgrounds: flatten the cutout onto white so the sheet exercises segmentation too.
    const photo = await sharp(await readFile(file)).flatten({ background: '#ffffff' }).jpeg({ quality: 92 }).toBuffer();
    for (const [column, job] of columns.entries()) {
      const shot = await model.generate({ image: photo, template: job.template, prompt: job.prompt, seed: 7 });
      const top = row * (TILE + LABEL);
      tiles.push({ input: await sharp(shot.image).resize(TILE, TILE).png().toBuffer(), left: column * TILE, top: top + LABEL });
      tiles.push({ input: label(job.title), left: column * TILE, top });
    }
  }
  for (const [index, { product, background }] of REAL_PHOTOS.entries()) {
    const file = files.find((f) => basename(f) === product);
    const backdrop = REAL_BACKGROUNDS.find((b) => b.name === background);
    if (!file || !backdrop) throw new Error(`${product} or the ${background} backdrop is missing`);
    const real = await makeRealCase(file, backdrop);
    const top = (PRODUCTS.length + index) * (TILE + LABEL);
    tiles.push({ input: await photoTile(real.photo, real.width, real.height, real.tap), left: 0, top: top + LABEL });
    tiles.push({ input: label(`photo: ${background}${real.tap ? ' + tap' : ''}`), left: 0, top });
    for (const [column, template] of REAL_TEMPLATES.entries()) {
      const shot = await model.generate({ image: real.photo, focus: real.tap ?? undefined, template, seed: 7 });
      tiles.push({ input: await sharp(shot.image).resize(TILE, TILE).png().toBuffer(), left: (column + 1) * TILE, top: top + LABEL });
      tiles.push({ input: label(TEMPLATES.find((t) => t.handle === template)?.name ?? template), left: (column + 1) * TILE, top });
    }
  }
  const rows = PRODUCTS.length + REAL_PHOTOS.length;
  const outDir = join(repoRoot(), 'bench', 'out');
  await mkdir(outDir, { recursive: true });
  const out = join(outDir, 'contact-sheet.png');
  await sharp({ create: { width: columns.length * TILE, height: rows * (TILE + LABEL), channels: 3, background: '#000' } })
    .composite(tiles)
    .png()
    .toFile(out);
  console.log(`wrote ${out}`);
}

main().catch((error: unknown) => {
  console.error(describeFailure(error));
  process.exit(1);
});
