import { mkdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import type { OverlayOptions } from 'sharp';
import { PROMPT_CHIPS, TEMPLATES } from '@prodshot/contracts';
import { EXTENDED_CATEGORIES, extendedPairs, makeExtendedCase, type Tap } from '../bench/extended-set.js';
import { REAL_BACKGROUNDS, makeRealCase } from '../bench/real-set.js';
import { corpusDir, corpusFiles, corpusFolder, repoRoot } from '../corpus/corpus.js';
import { isImagingError } from '../errors.js';
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
/** The extended set (issue 30): one photo of each category; its tiles are the cutout before and after the taps, then shots. */
const EXTENDED_TEMPLATES = ['studio', 'marble', 'lifestyle'] as const;
/** The photo, the cutout before and after the taps, then the templates. */
const EXTENDED_COLUMNS = 3 + EXTENDED_TEMPLATES.length;
const columns = [
  ...TEMPLATES.map((t) => ({ title: t.name, template: t.handle, prompt: undefined })),
  ...PROMPT_CHIPS.map((p) => ({ title: `“${p}”`, template: undefined, prompt: p })),
];
const TILE = 320;
const LABEL = 28;

function label(text: string): Buffer {
  const safe = text.replace(/[<>&]/g, '');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${TILE}" height="${LABEL}"><rect width="100%" height="100%" fill="#111"/><text x="8" y="19" font-family="sans-serif" font-size="15" fill="#eee">${safe}</text></svg>`,
  );
}

/** The photo as given (or a cutout on a checkerboard), letterboxed into a tile, with the seller's taps marked: pink keeps, red removes. */
async function photoTile(photo: Buffer, width: number, height: number, taps: readonly Tap[]): Promise<Buffer> {
  const scale = Math.min(TILE / width, TILE / height);
  const w = Math.round(width * scale),
    h = Math.round(height * scale);
  const left = Math.floor((TILE - w) / 2),
    top = Math.floor((TILE - h) / 2);
  const marker = taps
    .map((tap) => {
      const colour = tap.keep ? '#ff2bd6' : '#ff3b1f',
        cx = left + tap.x * w,
        cy = top + tap.y * h;
      return `<circle cx="${cx}" cy="${cy}" r="9" fill="none" stroke="${colour}" stroke-width="3"/>${tap.keep ? `<circle cx="${cx}" cy="${cy}" r="2.5" fill="${colour}"/>` : `<path d="M${cx - 5} ${cy}h10" stroke="${colour}" stroke-width="3"/>`}`;
    })
    .join('');
  return sharp({ create: { width: TILE, height: TILE, channels: 3, background: '#222' } })
    .composite([
      { input: await sharp(photo).resize(w, h).png().toBuffer(), left, top },
      {
        input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${TILE}" height="${TILE}">${marker}</svg>`),
        left: 0,
        top: 0,
      },
    ])
    .png()
    .toBuffer();
}

/** The engine's refusal code (say, empty_image) for the tile's label; anything else is a real failure. */
function refusal(error: unknown): string {
  if (isImagingError(error)) return error.code;
  throw error;
}

const refusedTile = () =>
  sharp({ create: { width: TILE, height: TILE, channels: 3, background: '#311' } })
    .png()
    .toBuffer();

/** A cutout over a grey checkerboard, so what the engine kept (and what it dropped) shows. */
async function checkerboard(cutout: Buffer): Promise<{ image: Buffer; width: number; height: number }> {
  const { width, height } = await sharp(cutout).metadata();
  const cell = Math.max(8, Math.round(Math.max(width, height) / 40));
  const board = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><pattern id="c" width="${cell * 2}" height="${cell * 2}" patternUnits="userSpaceOnUse"><rect width="${cell * 2}" height="${cell * 2}" fill="#bbb"/><rect width="${cell}" height="${cell}" fill="#eee"/><rect x="${cell}" y="${cell}" width="${cell}" height="${cell}" fill="#eee"/></pattern></defs><rect width="100%" height="100%" fill="url(#c)"/></svg>`,
  );
  const image = await sharp(board)
    .composite([{ input: cutout }])
    .png()
    .toBuffer();
  return { image, width, height };
}

/** The sheet's first rows: every template and chip on three products, then real-set photos with a few templates. */
async function firstRows(
  model: Awaited<ReturnType<typeof cliEngine>>,
  files: string[],
  tiles: OverlayOptions[],
): Promise<void> {
  for (const [row, name] of PRODUCTS.entries()) {
    const file = files.find((f) => basename(f) === name);
    if (!file) throw new Error(`${name} missing from the corpus`);
    // Seller photos have backgrounds: flatten the cutout onto white so the sheet exercises segmentation too.
    const photo = await sharp(await readFile(file))
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 92 })
      .toBuffer();
    for (const [column, job] of columns.entries()) {
      const shot = await model.generate({ image: photo, template: job.template, prompt: job.prompt, seed: 7 });
      const top = row * (TILE + LABEL);
      tiles.push({
        input: await sharp(shot.image).resize(TILE, TILE).png().toBuffer(),
        left: column * TILE,
        top: top + LABEL,
      });
      tiles.push({ input: label(job.title), left: column * TILE, top });
    }
  }
  for (const [index, { product, background }] of REAL_PHOTOS.entries()) {
    const file = files.find((f) => basename(f) === product);
    const backdrop = REAL_BACKGROUNDS.find((b) => b.name === background);
    if (!file || !backdrop) throw new Error(`${product} or the ${background} backdrop is missing`);
    const real = await makeRealCase(file, backdrop);
    const top = (PRODUCTS.length + index) * (TILE + LABEL);
    tiles.push({
      input: await photoTile(real.photo, real.width, real.height, real.tap ? [{ ...real.tap, keep: true }] : []),
      left: 0,
      top: top + LABEL,
    });
    tiles.push({ input: label(`photo: ${background}${real.tap ? ' + tap' : ''}`), left: 0, top });
    for (const [column, template] of REAL_TEMPLATES.entries()) {
      const shot = await model.generate({
        image: real.photo,
        taps: real.tap ? [{ ...real.tap, keep: true }] : undefined,
        template,
        seed: 7,
      });
      tiles.push({
        input: await sharp(shot.image).resize(TILE, TILE).png().toBuffer(),
        left: (column + 1) * TILE,
        top: top + LABEL,
      });
      tiles.push({
        input: label(TEMPLATES.find((t) => t.handle === template)?.name ?? template),
        left: (column + 1) * TILE,
        top,
      });
    }
  }
}

/**
 * Every template and prompt chip on three corpus products, then real-set photos (the photo, then a
 * few templates made from it), in one PNG under bench/out/, made by the worker's engine.
 */
async function main(): Promise<void> {
  const files = corpusFiles('products');
  if (!corpusDir('products')) throw new Error(`corpus folder ${corpusFolder('products')} is absent`);
  const model = await cliEngine();
  const tiles: OverlayOptions[] = [];
  // SHOT_SHEET_ROWS=extended renders only the extended set's rows: a quick look on a busy machine.
  const extendedOnly = process.env.SHOT_SHEET_ROWS === 'extended';
  const before = extendedOnly ? 0 : PRODUCTS.length + REAL_PHOTOS.length;
  if (!extendedOnly) await firstRows(model, files, tiles);
  for (const [index, category] of EXTENDED_CATEGORIES.entries()) {
    const [pair] = extendedPairs(category);
    const c = await makeExtendedCase(corpusFolder('products'), category, pair!.product, pair!.photo);
    const top = (before + index) * (TILE + LABEL);
    const place = (column: number, title: string, input: Buffer) =>
      tiles.push({ input, left: column * TILE, top: top + LABEL }, { input: label(title), left: column * TILE, top });
    place(0, `${category}: ${pair!.photo.replace(/\.jpg$/, '')}`, await photoTile(c.photo, c.width, c.height, c.taps));
    // Before the seller taps, then after all their taps: keeps and drops.
    const allTaps = c.taps.length ? c.taps : undefined;
    const cutouts = [
      { title: 'cutout, no tap', taps: undefined },
      ...(allTaps ? [{ title: 'cutout, after the taps', taps: allTaps }] : []),
    ];
    for (const [column, { title, taps }] of cutouts.entries()) {
      const cutout = await model.removeBackground(c.photo, { taps }).catch(refusal);
      if (typeof cutout === 'string') {
        place(column + 1, `${title}: ${cutout}`, await refusedTile());
        continue;
      }
      const board = await checkerboard(cutout);
      place(column + 1, title, await photoTile(board.image, board.width, board.height, taps ? c.taps : []));
    }
    if (category === 'empty') continue;
    for (const [column, template] of EXTENDED_TEMPLATES.entries()) {
      const shot = await model.generate({ image: c.photo, taps: allTaps, template, seed: 7 }).catch(refusal);
      const name = TEMPLATES.find((t) => t.handle === template)?.name ?? template;
      if (typeof shot === 'string') place(cutouts.length + 1 + column, `${name}: ${shot}`, await refusedTile());
      else place(cutouts.length + 1 + column, name, await sharp(shot.image).resize(TILE, TILE).png().toBuffer());
    }
  }
  const rows = before + EXTENDED_CATEGORIES.length;
  const outDir = join(repoRoot(), 'bench', 'out');
  await mkdir(outDir, { recursive: true });
  const out = join(outDir, extendedOnly ? 'contact-sheet-extended.png' : 'contact-sheet.png');
  await sharp({
    create: {
      width: (extendedOnly ? EXTENDED_COLUMNS : columns.length) * TILE,
      height: rows * (TILE + LABEL),
      channels: 3,
      background: '#000',
    },
  })
    .composite(tiles)
    .png()
    .toFile(out);
  console.log(`wrote ${out}`);
}

main().catch((error: unknown) => {
  console.error(describeFailure(error));
  process.exit(1);
});
