import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { SUPPORTED_PRODUCT_LIST, UNSUPPORTED_PRODUCT_MESSAGE } from '@prodshot/contracts';
import { corpusFile } from '@prodshot/fixtures';
import { chatCompletion, imagesResponse, openAIFake, type Answer, type OpenAICall } from '@prodshot/testing/fakes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, WCAG22_AA_TAGS } from './support/axe.js';
import { screenshot, VIEWPORTS } from './support/browser.js';
import { buyHundredCredits, signUp, startStackWithPage, stopStackWithPage } from './support/session.js';
import type { RunningStack } from './support/stack.js';

/**
 * Issue 32, point 9: the product's kind comes from the photo, the title is a hint. The stack runs
 * the hosted adapter against a local OpenAI (the third party is the only stand-in here), whose
 * vision answer looks at the pixels it is sent: a product mostly orange is food (the carrot drink), a
 * large blue one footwear (the plimsolls), anything else no kind it is sure of (the apple drink: green,
 * with a little blue lettering).
 */
const CLASSIFY = 'You classify product photos';
const PRODUCTS = {
  carrot: 'saleor-carrot-drink.png',
  apple: 'saleor-apple-drink.png',
  plimsolls: 'saleor-blue-plimsolls-1.png',
};

/** The shares of the photo sent to the vision model whose pixels are strongly coloured, by hue band. */
async function hueShares(dataUrl: string): Promise<{ orange: number; blue: number; green: number }> {
  const { data, info } = await sharp(Buffer.from(dataUrl.split(',')[1]!, 'base64'))
    .resize(64, 64, { fit: 'inside' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const bands = { orange: 0, blue: 0, green: 0 };
  for (let p = 0; p < info.width * info.height; p++) {
    const [r, g, b] = [data[p * 3]! / 255, data[p * 3 + 1]! / 255, data[p * 3 + 2]! / 255];
    const max = Math.max(r, g, b),
      min = Math.min(r, g, b);
    if (max - min < 0.35) continue;
    const hue =
      max === r
        ? (60 * ((g - b) / (max - min)) + 360) % 360
        : max === g
          ? 60 * ((b - r) / (max - min)) + 120
          : 60 * ((r - g) / (max - min)) + 240;
    if (hue >= 10 && hue < 50) bands.orange++;
    else if (hue >= 80 && hue < 160) bands.green++;
    else if (hue >= 190 && hue < 260) bands.blue++;
  }
  const pixels = info.width * info.height;
  return { orange: bands.orange / pixels, blue: bands.blue / pixels, green: bands.green / pixels };
}

async function visionReading(call: OpenAICall): Promise<{ kind: string; confidence: number }> {
  const content = (call.json!.messages as { content: unknown }[])[1]!.content as {
    type: string;
    image_url?: { url: string };
  }[];
  const { orange, blue, green } = await hueShares(content.find((part) => part.type === 'image_url')!.image_url!.url);
  if (orange > blue && orange > green) return { kind: 'food', confidence: 0.9 };
  if (blue > 0.04) return { kind: 'footwear', confidence: 0.85 };
  return { kind: 'unknown', confidence: 0 };
}

let painted: Buffer;
async function answer(call: OpenAICall): Promise<Answer> {
  if (call.path === '/images/edits') return { status: 200, body: imagesResponse(painted) };
  if (JSON.stringify(call.json).includes(CLASSIFY))
    return { status: 200, body: chatCompletion({ content: await visionReading(call) }) };
  const styles = ['Soft studio', 'Warm oak', 'Morning light'].map((name) => ({
    name,
    prompt: `${name.toLowerCase()} background`,
  }));
  return {
    status: 200,
    body: chatCompletion({
      content: {
        productInfo: { productTitle: 'Product', productDescription: 'A product', productType: 'product' },
        styles,
      },
    }),
  };
}

/** Each corpus cutout flattened onto a pale wall, as a seller's photo would be. */
async function sellerPhotos(): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'prodshot-e2e-kind-'));
  return Promise.all(
    Object.entries(PRODUCTS).map(async ([name, file]) => {
      const out = path.join(dir, `${name}.jpg`);
      await writeFile(
        out,
        await sharp(corpusFile('products', file))
          .resize(900, 900, { fit: 'inside' })
          .flatten({ background: '#ece6dc' })
          .jpeg({ quality: 88 })
          .toBuffer(),
      );
      return out;
    }),
  );
}

let fake: Awaited<ReturnType<typeof openAIFake>>;
let stack: RunningStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  painted = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#d9cbb5' } })
    .png()
    .toBuffer();
  fake = await openAIFake(answer);
  ({ stack, browser, page } = await startStackWithPage({
    env: { IMAGE_MODEL: 'openai', OPENAI_API_KEY: 'sk-e2e', OPENAI_BASE_URL: fake.base },
  }));
}, 180_000);

afterEach(async (context) => {
  // A failed walk shows where it stood and what the stand-in model was asked.
  if (context.task.result?.state !== 'fail') return;
  await screenshot(page, 'kind-failure');
  console.error(
    fake.violations,
    fake.calls.map((call) => call.path),
  );
});

afterAll(async () => {
  await stopStackWithPage({ stack, browser });
  await fake?.close();
}, 60_000);

async function atEachWidth(name: string, where: string, check: () => Promise<void> = async () => {}): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await check();
    expect(await axeViolations(page, WCAG22_AA_TAGS), `axe (WCAG 2.2 AA) on ${where} at ${viewport.width} px`).toEqual(
      [],
    );
    await screenshot(page, name);
  }
  await page.setViewportSize(VIEWPORTS[1]);
}

const items = () => page.getByTestId('batch-item');
const support = (n: number) => items().nth(n).getByTestId('photo-support');
const confirmEnabled = () =>
  page.evaluate(() => !(document.querySelector('.batch-confirm .button-block') as HTMLButtonElement | null)?.disabled);

describe("the seller's walk: what Prodshot shoots is read from the photo, and said before anything is charged", () => {
  it('shows only supported kinds on the home page', async () => {
    await page.goto('/');
    await page.getByRole('heading', { name: 'Made with Prodshot' }).waitFor();
    const alts = await page
      .locator('.home img')
      .evaluateAll((images) => images.map((image) => (image as HTMLImageElement).alt));
    expect(alts.length).toBeGreaterThanOrEqual(15);
    expect(alts.filter((alt) => /juice|drink|bottle|food|mug|cap\b|beanie|notebook/i.test(alt))).toEqual([]);
    await atEachWidth('kind-home', 'the home page');
  });

  it('refuses the carrot drink in the draft, in a notice with the supported list, shoots "Apple drink" and the plimsolls, and charges for those alone', async () => {
    await signUp(page, 'Kind Seller', `e2e-kind-${Date.now()}@example.com`);
    await buyHundredCredits(page);

    await page.locator('#image-input').setInputFiles(await sellerPhotos());
    await page.waitForURL('**/batches/new');
    await items().nth(2).waitFor();
    await page.getByLabel('Product title for photo 2').fill('Apple drink');
    await page.getByLabel('Styles per photo').selectOption('2');

    const notice = items().nth(0).getByRole('alert');
    await notice.waitFor({ timeout: 90_000 });
    expect(await notice.textContent()).toContain(`Photo 1: ${UNSUPPORTED_PRODUCT_MESSAGE} (food).`);
    for (const kind of SUPPORTED_PRODUCT_LIST) expect(await notice.getByText(kind).count()).toBe(1);
    await expect.poll(() => support(1).textContent(), { timeout: 90_000 }).toBe('✓ Ready to shoot');
    await expect.poll(() => support(2).textContent(), { timeout: 90_000 }).toBe('✓ Footwear: ready to shoot');
    expect(await confirmEnabled()).toBe(false);
    await page.getByText('Remove photo 1 to start: Prodshot does not shoot that product type yet.').waitFor();
    await atEachWidth('kind-draft-refused', 'the batch draft with a refused photo');

    await notice.getByRole('button', { name: 'Remove photo 1' }).click();
    await expect.poll(() => items().count()).toBe(2);
    // An outline the engine is unsure of waits for the seller's word, as on any batch.
    for (const sure of await page.getByRole('button', { name: "Yes, that's my product" }).all()) await sure.click();
    await expect.poll(confirmEnabled, { timeout: 30_000 }).toBe(true);
    expect(await page.getByTestId('batch-cost').textContent()).toMatch(
      /^Total: 4 credits for 2 photos · you have 100 credits$/,
    );
    await atEachWidth('kind-draft-ready', 'the batch draft once the refused photo is out');

    await page.getByRole('button', { name: 'Confirm and start · 4 credits' }).click();
    await page.waitForURL(/\/batches\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByTestId('credit-total').textContent(), { timeout: 10_000 }).toBe('96');
    await expect
      .poll(() => page.locator('[data-testid="batch-item"]', { hasText: '2 of 2 done' }).count(), {
        timeout: 180_000,
        interval: 1_000,
      })
      .toBe(2);
    expect(await page.getByText(UNSUPPORTED_PRODUCT_MESSAGE).count()).toBe(0);
    await atEachWidth('kind-batch-done', 'the finished batch');

    // The vision model saw photos, never a title: 'Apple drink' could not talk it into a refusal.
    const readings = fake.calls.filter((call) => JSON.stringify(call.json ?? {}).includes(CLASSIFY));
    expect(readings.length).toBeGreaterThanOrEqual(3);
    expect(readings.filter((call) => JSON.stringify(call.json).includes('Apple drink'))).toEqual([]);
    expect(fake.violations).toEqual([]);
  }, 420_000);
});
