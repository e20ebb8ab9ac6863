import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { corpusFile } from '@prodshot/fixtures';
import { readZip } from '@prodshot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, VIEWPORTS } from './support/browser.js';
import {
  buyHundredCredits,
  expectNoAxeViolations,
  signUp,
  startStackWithPage,
  stopStackWithPage,
} from './support/session.js';
import { savedDownload } from './support/downloads.js';
import type { RunningStack } from './support/stack.js';

const PRODUCT = corpusFile('products', 'saleor-blue-plimsolls-1.png');
/** 4 MB: what Download's JPEG stays within at any size (Amazon takes at most 10 MB). */
const DOWNLOAD_MAX_BYTES = 4 * 1024 * 1024;

let stack: RunningStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ stack, browser, page } = await startStackWithPage({ acceptDownloads: true }));
}, 180_000);

afterAll(() => stopStackWithPage({ stack, browser }), 60_000);

/** The label's size as the page counts it (1 MB = 1024² bytes), from a file's length. */
function sizeLabel(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  if (mb >= 10) return `${Math.round(mb)} MB`;
  if (mb >= 1) return `${mb.toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

const saved = (click: () => Promise<void>) => savedDownload(page, click);

/** Both widths, checked by axe and pictured under `name`; the page is left at desktop width. */
async function atBothWidths(name: string): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page, `${name} at ${viewport.width} px`);
    await screenshot(page, name);
  }
  await page.setViewportSize(VIEWPORTS[1]);
}

describe('downloads a phone can carry, in Chromium against the running stack', () => {
  it('saves a smart shot as a JPEG named after the product, and the original PNG from the choice that names its size', async () => {
    await signUp(page, 'Download Seller', `e2e-downloads-${Date.now()}@example.com`);
    await buyHundredCredits(page);
    await page.goto('/dashboard');
    await page.locator('#image-input').setInputFiles(PRODUCT);
    await page.getByLabel('Product title (optional)').fill('Runner 420 sneaker');
    await page.getByRole('button', { name: 'Continue with Smart Upload' }).click();
    await page.waitForURL(/\/smart\/[^/]+$/, { timeout: 90_000 });
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('[data-testid="style-card"]')).filter((card) =>
          card.textContent?.includes('Complete!'),
        ).length === 4,
      undefined,
      { timeout: 150_000 },
    );
    await page.getByRole('button', { name: 'View All Results' }).click();
    await page.waitForURL(/\/smart-results\/[^/]+$/);
    await page.locator('.result-grid').waitFor();
    const original = page.getByRole('button', { name: /^Download original PNG · / }).first();
    await original.waitFor();
    await atBothWidths('downloads-smart-results');

    const jpeg = await saved(() => page.getByRole('button', { name: 'Download', exact: true }).first().click());
    expect(jpeg.name).toMatch(/^runner-420-sneaker-shot-\d+\.jpg$/);
    expect(await sharp(jpeg.bytes).metadata()).toMatchObject({ format: 'jpeg' });
    expect(jpeg.bytes.length).toBeLessThanOrEqual(DOWNLOAD_MAX_BYTES);

    const label = await original.textContent();
    const png = await saved(() => original.click());
    expect(png.name).toMatch(/^runner-420-sneaker-shot-\d+\.png$/);
    expect(await sharp(png.bytes).metadata()).toMatchObject({ format: 'png' });
    expect(label).toBe(`PNG · ${sizeLabel(png.bytes.length)}`);
    expect(png.bytes.length).toBeGreaterThan(jpeg.bytes.length);
  });

  it('heads a shot popup by its style and date, with the same two downloads', async () => {
    await page.goto('/all-generations');
    await page
      .getByRole('button', { name: /^Open generation / })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }).format(
      new Date(),
    );
    expect(await dialog.getByRole('heading').first().textContent()).toMatch(new RegExp(`^[A-Za-z ]+ · ${day}$`));
    expect(await dialog.textContent()).not.toContain('Generation #');
    await dialog.getByRole('button', { name: /^Download original PNG · / }).waitFor();
    await atBothWidths('downloads-popup');
    const jpeg = await saved(() => dialog.getByRole('button', { name: 'Download', exact: true }).click());
    expect(jpeg.name).toMatch(/^generation-[0-9a-f-]{36}\.jpg$/);
  });

  it("names a batch zip's size on its button, and holds JPEGs named after the product or the uploaded file", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'prodshot-e2e-downloads-'));
    const photos = await Promise.all(
      ['saleor-blue-plimsolls-1.png', 'saleor-mighty-mug.png'].map(async (name) => {
        const out = path.join(dir, `${path.basename(name, '.png')}.jpg`);
        await writeFile(
          out,
          await sharp(corpusFile('products', name))
            .resize(900, 900, { fit: 'inside' })
            .flatten({ background: '#ece6dc' })
            .jpeg({ quality: 88 })
            .toBuffer(),
        );
        return out;
      }),
    );
    await page.goto('/dashboard');
    await page.locator('#image-input').setInputFiles(photos);
    await page.waitForURL('**/batches/new');
    await page.getByTestId('batch-item').nth(1).waitFor();
    await page.getByLabel('Product title for photo 1').fill('Runner 420 sneaker');
    await page.getByRole('radio', { name: /One template/ }).check();
    await page.getByRole('combobox', { name: 'Template' }).selectOption('marble');
    await page.waitForFunction(
      () => !(document.querySelector('.batch-confirm .button-block') as HTMLButtonElement | null)?.disabled,
      undefined,
      { timeout: 30_000 },
    );
    await page.getByRole('button', { name: /^Confirm and start/ }).click();
    await page.waitForURL(/\/batches\/[0-9a-f-]{36}$/);
    await expect
      .poll(() => page.locator('[data-testid="batch-item"]', { hasText: '1 of 1 done' }).count(), {
        timeout: 180_000,
        interval: 1_000,
      })
      .toBe(2);
    await page.reload();
    const all = page.getByRole('link', { name: /^Download all · / });
    await all.waitFor({ timeout: 20_000 });
    await atBothWidths('downloads-batch');

    const label = await all.textContent();
    const zip = await saved(() => all.click());
    expect(label).toBe(`Download all · ${sizeLabel(zip.bytes.length)}`);
    const entries = await readZip(zip.bytes);
    expect(entries.map((entry) => entry.name).sort()).toEqual([
      'runner-420-sneaker-marble-1.jpg',
      'saleor-mighty-mug-marble-1.jpg',
    ]);
    for (const entry of entries) expect((await sharp(entry.data).metadata()).format).toBe('jpeg');

    const originals = page.getByRole('link', { name: /^Original PNGs · / });
    const originalsLabel = await originals.textContent();
    const pngZip = await saved(() => originals.click());
    expect(originalsLabel).toBe(`Original PNGs · ${sizeLabel(pngZip.bytes.length)}`);
    expect((await readZip(pngZip.bytes)).map((entry) => entry.name).sort()).toEqual([
      'runner-420-sneaker-marble-1.png',
      'saleor-mighty-mug-marble-1.png',
    ]);
  });
});
