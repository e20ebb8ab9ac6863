import { mkdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import type { OverlayOptions } from 'sharp';
import { PROMPT_CHIPS, TEMPLATES } from '@prodshot/contracts';
import { corpusFiles, corpusFolder, repoRoot } from '../corpus/corpus.js';
import { LocalImageModel } from '../local/local-model.js';

/** Three products that differ in shape and colour: wide shoe, tall pair of bottles, eyewear. */
const PRODUCTS = ['saleor-dash-force-1.png', 'solidus_bottles_1.png', 'saleor-sunnies-dark.png'];
const TILE = 320;
const LABEL = 28;

function label(text: string): Buffer {
  const safe = text.replace(/[<>&]/g, '');
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${TILE}" height="${LABEL}"><rect width="100%" height="100%" fill="#111"/><text x="8" y="19" font-family="sans-serif" font-size="15" fill="#eee">${safe}</text></svg>`);
}

/** Every template and prompt chip on three corpus products, in one PNG under bench/out/. */
async function main(): Promise<void> {
  const files = corpusFiles('products');
  if (!files) throw new Error(`corpus folder ${corpusFolder('products')} is absent`);
  const model = new LocalImageModel();
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
  const outDir = join(repoRoot(), 'bench', 'out');
  await mkdir(outDir, { recursive: true });
  const out = join(outDir, 'contact-sheet.png');
  await sharp({ create: { width: columns.length * TILE, height: PRODUCTS.length * (TILE + LABEL), channels: 3, background: '#000' } })
    .composite(tiles)
    .png()
    .toFile(out);
  console.log(`wrote ${out}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
