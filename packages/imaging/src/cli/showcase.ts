import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { TemplateHandle } from '@prodshot/contracts';
import { corpusFile } from '@prodshot/fixtures';
import { repoRoot } from '../corpus/corpus.js';
import { LocalImageModel } from '../local/local-model.js';

/**
 * The home page's pictures that this script makes, by their name in apps/web/public/showcase: each a
 * corpus cutout of a kind Prodshot supports (footwear, eyewear, a bag; issue 32: the marketing shows
 * no kind it would refuse) on one of the templates. home.tsx holds their alt text.
 */
const PICTURES: Record<string, { product: string; template: TemplateHandle }> = {
  'gallery-3': { product: 'saleor-white-plimsolls-2.png', template: 'lightwood' },
  'gallery-7': { product: 'solidus_canvas_tote.png', template: 'pastel-gradient' },
  'collage-1': { product: 'saleor-pauls-blanace-420-1.png', template: 'marble' },
  'collage-2': { product: 'saleor-sunnies-dark.png', template: 'lightwood' },
  'collage-4': { product: 'saleor-blue-plimsolls-1.png', template: 'studio' },
};
/** The size the page's pictures are stored at; the web build makes their WebP widths from it. */
const SIDE = 640;

/** Makes the named pictures (all of PICTURES without a name) with the local engine, from the product's own cutout. */
async function main(names: string[]): Promise<void> {
  const engine = new LocalImageModel();
  for (const name of names.length ? names : Object.keys(PICTURES)) {
    const picture = PICTURES[name];
    if (!picture) throw new Error(`no showcase picture named ${name}: one of ${Object.keys(PICTURES).join(', ')}`);
    const shot = await engine.generate({
      cutout: await readFile(corpusFile('products', picture.product)),
      template: picture.template,
      size: 1024,
      format: 'png',
    });
    const out = join(repoRoot(), 'apps/web/public/showcase', `${name}.jpg`);
    await writeFile(out, await sharp(shot.image).resize(SIDE, SIDE).jpeg({ quality: 80, mozjpeg: true }).toBuffer());
    console.log(`${out}: ${picture.product} on ${picture.template}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
