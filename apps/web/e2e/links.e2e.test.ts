import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, VIEWPORTS } from './support/browser.js';
import { signUp, startStackWithPage, stopStackWithPage } from './support/session.js';
import { savedDownload } from './support/downloads.js';
import type { RunningStack } from './support/stack.js';

/**
 * Links that expire, in a real browser: the stack signs file links that live 60 s to 120 s (a 30 s
 * TTL and a 60 s window, the least the config accepts), so a page revisited two minutes later must
 * get fresh ones from the API. Also the uploads' fallback path and the spec's payment and credits
 * messages, where only a browser shows what a seller would see.
 */

/** A mug-like block on a pale wall: any photo will do, so the test needs no corpus. */
async function productPhoto(): Promise<string> {
  const product = await sharp({ create: { width: 360, height: 420, channels: 3, background: '#2f5d8a' } })
    .png()
    .toBuffer();
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'prodshot-links-e2e-')), 'blue-mug.jpg');
  await writeFile(
    file,
    await sharp({ create: { width: 900, height: 900, channels: 3, background: '#ece6dc' } })
      .composite([{ input: product, left: 270, top: 240 }])
      .jpeg({ quality: 88 })
      .toBuffer(),
  );
  return file;
}

const LINK_TTL_SECONDS = 30;
const LINK_WINDOW_SECONDS = 60;
/**
 * The longest a link can live: cut at its window's start, it lasts the window plus the TTL rounded
 * up to whole windows (signingTimes in packages/storage), 120 s here, whenever in the window the page asked.
 */
const LINK_LIFETIME_MAX_SECONDS =
  LINK_WINDOW_SECONDS + Math.ceil(LINK_TTL_SECONDS / LINK_WINDOW_SECONDS) * LINK_WINDOW_SECONDS;

let stack: RunningStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ stack, browser, page } = await startStackWithPage({
    env: { SIGNED_URL_TTL_SECONDS: String(LINK_TTL_SECONDS), SIGNED_URL_WINDOW_SECONDS: String(LINK_WINDOW_SECONDS) },
    acceptDownloads: true,
  }));
}, 180_000);

afterAll(() => stopStackWithPage({ stack, browser }), 60_000);

const editorPhoto = (target: Page) => target.locator('img[alt^="Original photo of"]');

/** The picture has arrived and decoded: a broken or expired link never gets a natural width. */
async function shown(target: Page, selector: string): Promise<string> {
  const handle = await target.waitForFunction(
    (css) => {
      const img = document.querySelector<HTMLImageElement>(css);
      return img && img.complete && img.naturalWidth > 0 ? img.currentSrc || img.src : null;
    },
    selector,
    { timeout: 30_000 },
  );
  return (await handle.jsonValue()) as string;
}

/** Any link in the current history entry's state (react-router keeps it under `usr`). */
async function linksInHistoryState(target: Page): Promise<string[]> {
  return target.evaluate(() => {
    const all: string[] = [];
    const walk = (value: unknown): void => {
      if (typeof value === 'string') all.push(value);
      else if (value && typeof value === 'object') Object.values(value).forEach(walk);
    };
    walk(history.state);
    return all.filter((text) => /\/api\/files\/|^https?:|^blob:/.test(text));
  });
}

describe('links that expire, in Chromium against the running stack', () => {
  it('signs up with the embedded sign-in', async () => {
    await signUp(page, 'Lina Links', `links-${Date.now()}@example.com`);
    await page.getByRole('heading', { name: "Upload Your Image, We'll Do the Magic" }).waitFor();
  });

  it('shows the editor photo again on Back and on reload after its signed link expired: the history entry holds ids, the page asks the API for links', async () => {
    await page.locator('#image-input').setInputFiles(await productPhoto());
    await page.getByRole('button', { name: 'Continue with Manual Design' }).click();
    await page.waitForURL('**/editor');
    const first = await shown(page, 'img[alt^="Original photo of"]');
    expect(await linksInHistoryState(page)).toEqual([]);

    await page.getByRole('link', { name: '← Back to Dashboard' }).click();
    await page.waitForURL('**/dashboard');
    // Wait out the link: the file route answers 403 once it has expired.
    await expect
      .poll(async () => (await page.request.get(first)).status(), {
        timeout: (LINK_LIFETIME_MAX_SECONDS + 10) * 1000,
        interval: 2000,
      })
      .toBe(403);

    await page.goBack();
    await page.waitForURL('**/editor');
    await expect
      .poll(async () => (await editorPhoto(page).getAttribute('src')) !== first, { timeout: 30_000 })
      .toBe(true);
    const again = await shown(page, 'img[alt^="Original photo of"]');
    expect(again).not.toBe(first);
    expect((await page.request.get(again)).status()).toBe(200);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await screenshot(page, 'links-editor-revisited');
    }
    await page.setViewportSize(VIEWPORTS[1]);

    await page.reload();
    await shown(page, 'img[alt^="Original photo of"]');
    expect(await linksInHistoryState(page)).toEqual([]);
  }, 240_000);

  it("falls back to /uploads/{id}?fallback=true with the app's bearer token when an upload's links fail, served by the API beside the SPA", async () => {
    // Every stored-file link of an upload fails, as an expired one would; the fallback path is not one.
    await page.route(/\/api\/files\/.*\/uploads\//, (route) => route.abort());
    const fallbacks: { url: string; authorization: string | undefined; status: number }[] = [];
    page.on('response', (response) => {
      if (response.url().includes('fallback=true'))
        fallbacks.push({
          url: response.url(),
          authorization: response.request().headers().authorization,
          status: response.status(),
        });
    });
    await page.goto('/all-uploads');
    const tile = 'ul[data-testid="image-grid"] img';
    await page.locator(tile).first().waitFor();
    await page.waitForFunction((css) => document.querySelector<HTMLImageElement>(css)?.src.startsWith('blob:'), tile, {
      timeout: 30_000,
    });
    await shown(page, tile);
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toMatchObject({ status: 200, authorization: expect.stringMatching(/^Bearer /) });
    expect(new URL(fallbacks[0]!.url).pathname).toMatch(/^\/uploads\/[\w-]+$/);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await screenshot(page, 'links-all-uploads-fallback');
    }
    await page.setViewportSize(VIEWPORTS[1]);
    await page.unroute(/\/api\/files\/.*\/uploads\//);
  });

  it('hands the dashboard an upload from /all-uploads by its ids and shows it from fresh links', async () => {
    await page.goto('/all-uploads');
    await page.locator('ul[data-testid="image-grid"] button.tile-image').first().click();
    await page.waitForURL('**/dashboard');
    await shown(page, '.selected-preview');
    expect(await linksInHistoryState(page)).toEqual([]);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await screenshot(page, 'links-dashboard-selected');
    }
    await page.setViewportSize(VIEWPORTS[1]);
  });

  it("says 'No response received from payment server' under the checkout's message when the payment call gets no answer", async () => {
    await page.route('**/api/payments/subscription', (route) => route.abort());
    await page.goto('/checkout?plan=starter');
    await page.getByRole('button', { name: 'Subscribe to Starter' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('There was an error processing your payment. Please try again.').waitFor();
    expect(await page.getByTestId('payment-error-reason').textContent()).toBe(
      'No response received from payment server',
    );
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await screenshot(page, 'links-checkout-no-response');
    }
    await page.setViewportSize(VIEWPORTS[1]);
    await page.unroute('**/api/payments/subscription');
  });

  it("ends the credits' loading when their fetch fails, and only logs it", async () => {
    const logged: string[] = [];
    page.on('console', (message) => message.type() === 'error' && logged.push(message.text()));
    await page.route('**/api/users/subscription', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'Database unavailable' }),
      }),
    );
    await page.goto('/profile');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="credit-total"]')?.textContent === '0',
      undefined,
      { timeout: 20_000 },
    );
    expect(logged.some((text) => text.includes('Failed to load credits'))).toBe(true);
    await page.getByTestId('credit-total').hover();
    await page.getByRole('tooltip').getByText('No Subscription').waitFor();
    await screenshot(page, 'links-credits-failed');
    await page.setViewportSize(VIEWPORTS[0]);
    await screenshot(page, 'links-credits-failed');
    await page.setViewportSize(VIEWPORTS[1]);
    await page.unroute('**/api/users/subscription');
  });

  it('downloads shots through the API from the app origin: the editor saves {product}-image-{timestamp}.jpg, the popup generation-{id}.jpg', async () => {
    await page.goto('/checkout?plan=starter');
    await page.getByRole('button', { name: 'Subscribe to Starter' }).click();
    await page.waitForURL('**/dashboard?subscription=success');
    const downloads: string[] = [];
    page.on(
      'request',
      (request) => request.url().endsWith('/download') && downloads.push(new URL(request.url()).pathname),
    );

    await page.locator('ul.thumb-grid button').first().click();
    await page.getByRole('button', { name: 'Continue with Manual Design' }).click();
    await page.waitForURL('**/editor');
    await page.getByRole('button', { name: /^Studio/ }).click();
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await page.getByText('Studio result').waitFor({ timeout: 90_000 });
    const fromEditor = await savedDownload(page, () =>
      page.getByRole('button', { name: 'Download', exact: true }).click(),
    );
    // Download saves the full-size JPEG (docs/decisions.md, Naming); the PNG is its second choice.
    expect(fromEditor.name).toMatch(/^blue-mug-image-\d+\.jpg$/);
    expect(fromEditor.bytes.subarray(0, 3).toString('hex')).toBe('ffd8ff');

    await page.getByRole('link', { name: '← Back to Dashboard' }).click();
    const shot = page.getByRole('button', { name: /^Open generation / });
    const id = ((await shot.first().getAttribute('aria-label')) ?? '').replace('Open generation ', '');
    await shot.first().click();
    const fromPopup = await savedDownload(page, () =>
      page.getByRole('dialog').getByRole('button', { name: 'Download', exact: true }).click(),
    );
    expect(fromPopup.name).toBe(`generation-${id}.jpg`);
    expect(downloads).toHaveLength(2);
    for (const pathname of downloads) expect(pathname).toMatch(/^\/api\/generations\/[\w-]+\/styles\/0\/download$/);
  }, 180_000);
});
