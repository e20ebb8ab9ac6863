import path from 'node:path';
import sharp from 'sharp';
import { repoRoot, type BenchStack } from './bench-stack.js';
import { doneEvent, generationIdOf, post, STYLE_PROMPT, until, uploadPhoto, type Seller } from './seller.js';

/** A real photograph (bench/real-photos, with its source and licence) to stand the product on. */
const TABLE = path.join(repoRoot, 'bench', 'real-photos', 'wood-painted-planks.jpg');
const UNCUT_RUNS = 3;

interface StyleSample {
  /** Request sent → `complete` event received, on the bench's clock. */
  endToEndMs: number;
  /** The engine's own render inside the worker: the style's progress 30 → 90 events, stamped around `generate()`. */
  engineMs: number;
}

/** (3) End-to-end time of one style job (API accept → queue → worker → storage → DB → socket), one at a time. */
export async function styleEndToEnd(stack: BenchStack, seller: Seller, generations: number): Promise<StyleSample[]> {
  const samples: StyleSample[] = [];
  for (let g = 0; g < generations; g += 1) {
    const recommended = await post(stack.baseUrl, seller, '/api/images/generate-product-style-recommendations', { imageId: seller.imageId }, false);
    const generationId = generationIdOf(recommended);
    for (let index = 0; index < 4; index += 1) {
      const started = Date.now();
      const result = await post(stack.baseUrl, seller, '/api/images/generate-single-product-shot', {
        imageId: seller.imageId,
        generationId,
        stylePrompt: STYLE_PROMPT,
        styleName: 'Marble',
        styleIndex: index,
      });
      if (result.status !== 202) throw new Error(`single shot answered ${result.status}`);
      const ofStyle = (status: string, progress?: number) =>
        seller.events.find(
          (e) =>
            e.event === 'generation:style' &&
            e.payload.generationId === generationId &&
            e.payload.index === index &&
            e.payload.status === status &&
            (progress === undefined || e.payload.progress === progress),
        );
      const done = await until(async () => ofStyle('complete'), 60_000, 'a style to complete');
      const [rendering, rendered] = [ofStyle('progress', 30), ofStyle('progress', 90)];
      if (!rendering || !rendered) throw new Error('a style completed without its progress events');
      samples.push({ endToEndMs: done.receivedAt - started, engineMs: rendered.payload.at - rendering.payload.at });
    }
  }
  return samples;
}

/** (2) Smart generation of 4 styles for many sellers at once: time until each seller's generation:done arrives. */
export async function smartForSellers(stack: BenchStack, sellers: Seller[]): Promise<number[]> {
  return Promise.all(
    sellers.map(async (seller) => {
      const started = Date.now();
      const result = await post(stack.baseUrl, seller, '/api/images/smart-generate-product-shots', { imageId: seller.imageId, styleCount: 4 });
      const generationId = generationIdOf(result);
      const done = await until(
        async () => doneEvent(seller, generationId),
        600_000,
        'a smart generation',
      );
      return done.receivedAt - started;
    }),
  );
}

/**
 * The product standing on a wooden table, as a phone would send it: the ML cutout has work to do.
 * Each run's photo is another (the product a little further along), so no run reuses the mask an
 * earlier one left in the worker's cache.
 */
async function uncutPhoto(product: string, run: number): Promise<Buffer> {
  const resized = await sharp(product).resize(560).toBuffer();
  return sharp(TABLE).resize(1024, 768, { fit: 'cover' }).composite([{ input: resized, left: 200 + 30 * run, top: 150 }]).jpeg({ quality: 80 }).toBuffer();
}

/**
 * (3) What one seller waits for, as the web app does it, from an uncut photo: upload, the upload's
 * analysis and cutout (the subject event), then 4 styles until generation:done.
 */
export async function smartFromUncutPhoto(stack: BenchStack, seller: Seller, product: string): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < UNCUT_RUNS; run += 1) {
    const photo = await uncutPhoto(product, run);
    const started = Date.now();
    const imageId = await uploadPhoto(stack.baseUrl, seller.token, photo, `table-${run}.jpg`);
    await until(async () => seller.events.find((e) => e.event === 'image:subject' && e.payload.imageId === imageId), 120_000, 'the upload analysis');
    const generationId = generationIdOf(await post(stack.baseUrl, seller, '/api/images/smart-generate-product-shots', { imageId, styleCount: 4 }));
    await until(async () => doneEvent(seller, generationId), 120_000, 'a smart generation from an uncut photo');
    times.push(Date.now() - started);
  }
  return times;
}
