import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { OUTLINE_PROMPT, TAP_TO_FIND_MESSAGE, type Tap } from '@prodshot/contracts';
import { corpusFile } from '@prodshot/fixtures';
import { readZip, sunglassesOnPebbles } from '@prodshot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, VIEWPORTS } from './support/browser.js';
import { photoFile } from './support/photos.js';
import { expectNoAxeViolations, sellerWithCredits, startStackWithPage, stopStackWithPage } from './support/session.js';
import { savedDownload } from './support/downloads.js';
import type { RunningStack } from './support/stack.js';

const PRODUCTS = ['saleor-blue-plimsolls-1.png', 'saleor-mighty-mug.png', 'solidus_canvas_tote.png'].map((name) =>
  corpusFile('products', name),
);

/** Each corpus cutout flattened onto a pale wall, as a seller's photo would be. */
async function sellerPhotos(): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'prodshot-e2e-batch-'));
  return Promise.all(
    PRODUCTS.map(async (file) => {
      const out = path.join(dir, `${path.basename(file, '.png')}.jpg`);
      await writeFile(
        out,
        await sharp(file)
          .resize(900, 900, { fit: 'inside' })
          .flatten({ background: '#ece6dc' })
          .jpeg({ quality: 88 })
          .toBuffer(),
      );
      return out;
    }),
  );
}

let stack: RunningStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ stack, browser, page } = await startStackWithPage({ acceptDownloads: true }));
}, 180_000);

afterAll(() => stopStackWithPage({ stack, browser }), 60_000);

const seller = sellerWithCredits(() => page, 'Batch Seller', 'e2e-batch');

const creditTotal = () => page.getByTestId('credit-total').textContent();
const doneItems = () => page.locator('[data-testid="batch-item"]', { hasText: '1 of 1 done' }).count();

describe('a batch in Chromium against the running stack', () => {
  it('takes 3 corpus photos from one pick through one confirmation to a zip of readable names', async () => {
    await seller();

    await page.locator('#image-input').setInputFiles(await sellerPhotos());
    await page.waitForURL('**/batches/new');
    await page.getByTestId('batch-item').nth(2).waitFor();
    expect(await page.getByTestId('batch-item').count()).toBe(3);
    await page.getByLabel('Product title for photo 1').fill('Blue Plimsolls');
    await page.getByRole('radio', { name: /One template/ }).check();
    await page.getByRole('combobox', { name: 'Template' }).selectOption('marble');
    expect(await page.getByTestId('batch-cost').textContent()).toMatch(
      /^Total: 3 credits for 3 photos · you have 100 credits$/,
    );
    const confirm = page.getByRole('button', { name: 'Confirm and start · 3 credits' });
    await page.waitForFunction(
      () => !(document.querySelector('.batch-confirm .button-block') as HTMLButtonElement | null)?.disabled,
      undefined,
      { timeout: 30_000 },
    );
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await expectNoAxeViolations(page, `the batch draft at ${viewport.width} px`);
      await screenshot(page, 'batch-draft');
    }
    await page.setViewportSize(VIEWPORTS[1]);

    await confirm.click();
    await page.waitForURL(/\/batches\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Batch of 3 photos' }).waitFor();
    await expect.poll(creditTotal, { timeout: 10_000 }).toBe('97');
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await screenshot(page, 'batch-progress');
    }
    await page.setViewportSize(VIEWPORTS[1]);
    await expect.poll(doneItems, { timeout: 180_000, interval: 1_000 }).toBe(3);

    // Resumable by its URL: a reload reads the batch again, finished as it is.
    await page.reload();
    await expect.poll(doneItems, { timeout: 20_000 }).toBe(3);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await expectNoAxeViolations(page, `the finished batch at ${viewport.width} px`);
      await screenshot(page, 'batch-done');
    }
    await page.setViewportSize(VIEWPORTS[1]);

    const download = await savedDownload(page, () => page.getByRole('link', { name: 'Download all' }).click());
    expect(download.name).toMatch(/^prodshot-batch-[0-9a-f]{8}\.zip$/);
    const entries = await readZip(download.bytes);
    // Untitled photos go by the name of the file uploaded (issue 32), and every shot is Download's JPEG.
    expect(entries.map((entry) => entry.name).sort()).toEqual([
      'blue-plimsolls-marble-1.jpg',
      'saleor-mighty-mug-marble-1.jpg',
      'solidus-canvas-tote-marble-1.jpg',
    ]);
    for (const entry of entries) {
      const { format, width } = await sharp(entry.data).metadata();
      expect({ name: entry.name, format: format === 'jpeg' ? 'jpg' : format }).toEqual({
        name: entry.name,
        format: entry.name.split('.').pop(),
      });
      expect(width).toBeGreaterThan(500);
    }
    expect(download.bytes.length).toBeGreaterThan(50_000);
  });

  it('at 390 and 1280 px: a photo refused as empty, the seller taps the sunglasses in it and sees their outline, before anything is charged', async () => {
    await seller();
    await page.goto('/dashboard');
    await expect.poll(creditTotal, { timeout: 10_000 }).toMatch(/^\d+$/);
    const credits = await creditTotal();
    const { photo, tap } = await sunglassesOnPebbles();
    const [, mug] = await sellerPhotos();
    await page.setViewportSize(VIEWPORTS[0]);
    await page.locator('#image-input').setInputFiles([mug!, await photoFile(photo, 'sunglasses-on-pebbles.jpg')]);
    await page.waitForURL('**/batches/new');

    // The engine sees no product in the second photo: it is shown large enough to tap, under the prompt.
    const refused = page.getByTestId('batch-item').nth(1);
    await refused.getByText(TAP_TO_FIND_MESSAGE).waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('batch-item').nth(0).getByText(TAP_TO_FIND_MESSAGE).count()).toBe(0);
    await expectNoAxeViolations(page, 'the batch draft with a refused photo');
    await screenshot(page, 'batch-tap-to-find-refused');

    const picture = refused.getByAltText('sunglasses-on-pebbles.jpg: tap your product');
    const box = (await picture.boundingBox())!;
    const answered = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' &&
        /\/api\/images\/[^/]+\/outline$/.test(new URL(response.url()).pathname),
    );
    await picture.click({ position: { x: tap.x * box.width, y: tap.y * box.height } });
    const response = await answered;
    expect(response.status()).toBe(200);
    // One keep tap where the sunglasses are (the client rounds it to 4 decimals).
    const [sent, ...more] = (response.request().postDataJSON() as { focus: Tap[] }).focus;
    expect(more).toEqual([]);
    expect(sent!.keep).toBe(true);
    expect(sent!.x).toBeCloseTo(tap.x, 2);
    expect(sent!.y).toBeCloseTo(tap.y, 2);

    // Found: the outline to check in place of the prompt, and nothing held.
    await refused.getByText(OUTLINE_PROMPT).waitFor({ timeout: 30_000 });
    expect(await refused.getByText(TAP_TO_FIND_MESSAGE).count()).toBe(0);
    expect(await creditTotal()).toBe(credits);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await screenshot(page, 'batch-tap-to-find-found');
    }
  }, 300_000);
});
