import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, VIEWPORTS } from './support/browser.js';
import { callApi, signUp, startStackWithPage, stopStackWithPage, uploadViaApi } from './support/session.js';
import type { RunningStack } from './support/stack.js';

/** One more than the lists fetch at once (24): the oldest item is on the API's second page. */
const UPLOADS = 25;
/** Seven requests of four shots: more than the 24 the list fetches at once. */
const GENERATIONS = 28;

let stack: RunningStack;
let browser: Browser;
let page: Page;

/** A small product photo of its own (a dark box on a pale wall), so this suite needs no corpus. */
async function productPhoto(): Promise<number[]> {
  const box = await sharp({ create: { width: 150, height: 210, channels: 3, background: '#283a5c' } })
    .png()
    .toBuffer();
  const photo = await sharp({ create: { width: 480, height: 480, channels: 3, background: '#ece6dc' } })
    .composite([{ input: box, left: 165, top: 135 }])
    .png()
    .toBuffer();
  return [...photo];
}

async function outputCount(target: Page): Promise<number> {
  const { json } = await callApi(target, 'GET', `/api/images/recent/generations?limit=100`);
  return (json as { data: unknown[] }).data.length;
}

beforeAll(async () => {
  ({ stack, browser, page } = await startStackWithPage());
  await signUp(page, 'Hana History', `history-${Date.now()}@example.com`);
}, 180_000);

afterAll(() => stopStackWithPage({ stack, browser }), 60_000);

describe('history beyond the first page, in Chromium', () => {
  it('reaches the oldest of 25 uploads on /all-uploads by its numbered page', async () => {
    const photo = await productPhoto();
    for (let n = 0; n < UPLOADS; n += 1) await uploadViaApi(page, photo, `shelf-${String(n).padStart(2, '0')}`);
    await page.goto('/all-uploads');
    const tiles = page.locator('[data-testid="image-grid"] > li');
    await tiles.first().waitFor();
    expect(await page.locator('.page-header .muted').textContent()).toBe(`${UPLOADS} images`);
    expect(await tiles.count()).toBe(12);
    expect(await page.getByText('shelf-00', { exact: true }).count()).toBe(0);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await screenshot(page, 'history-all-uploads');
    }

    await page.getByRole('button', { name: 'Page 3' }).click();
    await page.getByText('shelf-00', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Page 3' }).getAttribute('aria-current')).toBe('page');
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await screenshot(page, 'history-all-uploads-loaded');
    }

    // The oldest upload is reachable for real: choosing it takes it back to the dashboard.
    await page.getByRole('button', { name: 'Use shelf-00' }).click();
    await page.waitForURL('**/dashboard');
  }, 300_000);

  it('reaches the oldest of 28 generations on /all-generations by its numbered page, and opens it', async () => {
    expect(
      (
        await callApi(
          page,
          'POST',
          '/api/payments/credits',
          { planKey: 'addon-100' },
          { 'idempotency-key': crypto.randomUUID() },
        )
      ).status,
    ).toBe(200);
    const { json } = await callApi(page, 'GET', '/api/images?limit=1');
    const imageId = (json as { data: { _id: string }[] }).data[0]!._id;
    for (let n = 0; n < GENERATIONS / 4; n += 1) {
      const started = await callApi(
        page,
        'POST',
        '/api/images/generate-product-shots',
        { imageId, backgroundType: 'studio', count: 4 },
        { prefer: 'respond-async', 'idempotency-key': crypto.randomUUID() },
      );
      expect(started.status).toBe(202);
    }
    await expect.poll(() => outputCount(page), { timeout: 300_000, interval: 2000 }).toBe(GENERATIONS);
    const all = (await callApi(page, 'GET', '/api/images/recent/generations?limit=100')).json as {
      data: { id: string }[];
    };
    const oldest = all.data.at(-1)!.id;

    await page.setViewportSize(VIEWPORTS[1]);
    await page.goto('/all-generations');
    await page.locator('[data-testid="image-grid"] > li').first().waitFor();
    expect(await page.locator('.page-header .muted').textContent()).toBe(`${GENERATIONS} images`);
    expect(await page.getByRole('button', { name: `Open generation ${oldest}` }).count()).toBe(0);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await screenshot(page, 'history-all-generations');
    }

    await page.getByRole('button', { name: 'Page 3' }).click();
    const last = page.getByRole('button', { name: `Open generation ${oldest}` });
    await last.waitFor();
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await screenshot(page, 'history-all-generations-loaded');
    }
    await last.click();
    await page.getByRole('dialog').waitFor();
  }, 420_000);
});
