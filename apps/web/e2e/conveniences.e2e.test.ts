import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, VIEWPORTS } from './support/browser.js';
import { expectNoAxeViolations, startStackWithPage, stopStackWithPage } from './support/session.js';
import { savedDownload } from './support/downloads.js';
import type { RunningStack } from './support/stack.js';

/**
 * Section 6's conveniences in Chromium against the built stack: a plan kept through sign-up, a
 * pasted image, the size and type checks made before anything is sent, the product title from the
 * dashboard to the download's name, and the credit panel opened by a tap on a touch screen.
 */

const MB = 1024 * 1024;
const TITLE = 'Blue ceramic mug';

/** A mug-like block on a pale wall, as PNG bytes: any photo will do. */
async function productPng(): Promise<Buffer> {
  const product = await sharp({ create: { width: 300, height: 360, channels: 3, background: '#2f5d8a' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 800, height: 800, channels: 3, background: '#ece6dc' } })
    .composite([{ input: product, left: 250, top: 220 }])
    .png()
    .toBuffer();
}

let stack: RunningStack;
let browser: Browser;
let page: Page;
let mobile: BrowserContext | undefined;
/** Every upload the desktop page sent: a refused file must add none. */
const uploadsSent: string[] = [];

beforeAll(async () => {
  ({ stack, browser, page } = await startStackWithPage({ acceptDownloads: true }));
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/images/upload')
      uploadsSent.push(request.url());
  });
}, 180_000);

afterAll(async () => {
  await mobile?.close();
  await stopStackWithPage({ stack, browser });
}, 60_000);

/** Pastes a file as the browser does on Ctrl+V: a real ClipboardEvent whose DataTransfer holds it. */
async function paste(target: Page, bytes: Buffer, name: string, type: string): Promise<void> {
  await target.evaluate(
    ({ data, name, type }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], name, { type }));
      document.body.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
      );
    },
    { data: [...bytes], name, type },
  );
}

/** Drops a file on the drop zone as a drag from the desktop does: a real DragEvent with its DataTransfer. */
async function drop(target: Page, text: string, name: string, type: string): Promise<void> {
  await target.evaluate(
    ({ text, name, type }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], name, { type }));
      const zone = document.querySelector('.dropzone')!;
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    },
    { text, name, type },
  );
}

async function bothWidths(target: Page, name: string): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await target.setViewportSize(viewport);
    await screenshot(target, name);
  }
  await target.setViewportSize(VIEWPORTS[1]);
}

const alert = (target: Page) => target.locator('.form-error[role="alert"]');

describe('conveniences, in Chromium against the built stack', () => {
  it('brings a signed-out seller who picks a plan back to its checkout after signing up', async () => {
    await page.goto('/pricing');
    await page.getByRole('button', { name: 'Choose Starter' }).click();
    await page.waitForURL(
      (url) => url.pathname === '/sign-in' && url.searchParams.get('redirect_url') === '/checkout?plan=starter',
    );
    await page.locator('.auth-switch').getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL(
      (url) => url.pathname === '/sign-up' && url.searchParams.get('redirect_url') === '/checkout?plan=starter',
    );
    await page.getByLabel('Full name').fill('Connie Conveniences');
    await page.getByLabel('Email address').fill(`conveniences-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/checkout' && url.search === '?plan=starter');
    await page.getByRole('button', { name: 'Subscribe to Starter' }).click();
    await page.waitForURL('**/dashboard?subscription=success');
  }, 90_000);

  it('never follows a return path off the site', async () => {
    const context = await browser.newContext({ baseURL: stack.baseUrl, viewport: VIEWPORTS[1] });
    const visitor = await context.newPage();
    for (const target of ['//evil.example/checkout', 'https://evil.example/', '/\\evil.example']) {
      await visitor.goto(`/sign-in?redirect_url=${encodeURIComponent(target)}`);
      await visitor.getByLabel('Email address').fill('redirect-probe@example.com');
      await visitor.getByRole('button', { name: 'Continue' }).click();
      await visitor.waitForURL((url) => url.origin === stack.baseUrl && url.pathname === '/dashboard');
      await visitor.evaluate(() => localStorage.clear());
    }
    await context.close();
  }, 60_000);

  it('takes an image pasted anywhere on the dashboard, and says the paste works', async () => {
    await page.goto('/dashboard');
    await page.getByText(/or paste an image with (Ctrl\+V|⌘V)/).waitFor();
    await paste(page, await productPng(), 'pasted-mug.png', 'image/png');
    await page.getByRole('group', { name: 'Selected image' }).waitFor();
    await page.waitForFunction(
      () => document.querySelector<HTMLImageElement>('img[alt="Selected image pasted-mug.png"]')?.naturalWidth === 800,
    );
  });

  it('names the product on the dashboard, stores it with the upload and saves the editor shot under it', async () => {
    await page.getByLabel('Product title (optional)').fill(TITLE);
    await expectNoAxeViolations(page, 'the dashboard with a chosen image and its title');
    await bothWidths(page, 'conveniences-dashboard-title');
    await page.getByRole('button', { name: 'Continue with Manual Design' }).click();
    await page.waitForURL('**/editor');
    expect(await page.getByLabel('Product title (optional)').inputValue()).toBe(TITLE);
    await bothWidths(page, 'conveniences-editor-title');
    const stored = await page.evaluate(async () => {
      const response = await fetch('/api/images', {
        headers: { authorization: `Bearer ${localStorage.getItem('auth-token')}` },
      });
      return ((await response.json()) as { data: { productTitle: string | null }[] }).data[0]?.productTitle;
    });
    expect(stored).toBe(TITLE);
    await page.getByRole('button', { name: /^Studio/ }).click();
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await page.getByText('Studio result').waitFor({ timeout: 90_000 });
    const download = await savedDownload(page, () =>
      page.getByRole('button', { name: 'Download', exact: true }).click(),
    );
    // Download saves the full-size JPEG (docs/decisions.md, Naming); the PNG is its second choice.
    expect(download.name).toMatch(/^blue-ceramic-mug-image-\d+\.jpg$/);
    expect(download.bytes.subarray(0, 3).toString('hex')).toBe('ffd8ff');
  }, 150_000);

  it('refuses a photo over 10 MB on the dashboard before sending it', async () => {
    await page.goto('/dashboard');
    const before = uploadsSent.length;
    await page
      .locator('#image-input')
      .setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(12 * MB) });
    await expect
      .poll(() => alert(page).textContent())
      .toBe('"huge.png" is 12.0 MB. Please select an image under 10MB.');
    expect(await page.getByRole('group', { name: 'Selected image' }).count()).toBe(0);
    await bothWidths(page, 'conveniences-size-refused');
    expect(uploadsSent.length).toBe(before);
  });

  it('says clearly that a dropped file is not an image, and sends nothing', async () => {
    const before = uploadsSent.length;
    await drop(page, 'Colour: blue\nSize: 350 ml', 'spec-sheet.txt', 'text/plain');
    await expect
      .poll(() => alert(page).textContent())
      .toBe('"spec-sheet.txt" is not an image. Please select an image file (JPEG, PNG, etc.)');
    await bothWidths(page, 'conveniences-not-an-image');
    expect(uploadsSent.length).toBe(before);
  });

  it('refuses on the smart page a file over 5 MB handed over from the dashboard, and one picked there', async () => {
    const before = uploadsSent.length;
    // A real 6 MB image: the dashboard (10 MB) takes it, the smart page (5 MB) must not send it.
    const big = await sharp({
      create: {
        width: 1600,
        height: 1600,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(5 * MB);
    await page.locator('#image-input').setInputFiles({ name: 'studio-raw.png', mimeType: 'image/png', buffer: big });
    await page.getByRole('group', { name: 'Selected image' }).waitFor();
    await page.getByRole('button', { name: 'Continue with Smart Upload' }).click();
    await page.waitForURL('**/smart-upload');
    const size = `${(Math.ceil((big.length / MB) * 10) / 10).toFixed(1)} MB`;
    await expect
      .poll(() => alert(page).textContent())
      .toBe(`"studio-raw.png" is ${size}. Please select an image under 5MB.`);
    await page.getByText('Supports JPEG, PNG, WebP (Max 5MB)').waitFor();
    await page.locator('#image-input').setInputFiles({ name: 'again.png', mimeType: 'image/png', buffer: big });
    await expect
      .poll(() => alert(page).textContent())
      .toBe(`"again.png" is ${size}. Please select an image under 5MB.`);
    await expectNoAxeViolations(page, 'the smart page refusing a file');
    await bothWidths(page, 'conveniences-smart-size-refused');
    await page.waitForTimeout(500);
    expect(uploadsSent.length).toBe(before);

    // A photo within the limit is taken, and the title can be given before the run.
    await page
      .locator('#image-input')
      .setInputFiles({ name: 'mug.png', mimeType: 'image/png', buffer: await productPng() });
    await page.getByLabel('Product title (optional)').fill(TITLE);
    expect(await alert(page).count()).toBe(0);
    await bothWidths(page, 'conveniences-smart-title');
  }, 60_000);

  it('opens the credit panel by tap on a touch screen, goes to pricing on a second tap, closes on a tap elsewhere', async () => {
    const token = await page.evaluate(() => localStorage.getItem('auth-token'));
    mobile = await browser.newContext({
      baseURL: stack.baseUrl,
      viewport: VIEWPORTS[0],
      hasTouch: true,
      isMobile: true,
    });
    await mobile.addInitScript((saved) => localStorage.setItem('auth-token', saved ?? ''), token);
    const phone = await mobile.newPage();
    await phone.goto('/dashboard');
    const counter = phone.locator('.credit-button');
    await expect.poll(() => phone.getByTestId('credit-total').textContent(), { timeout: 15_000 }).not.toBe('...');
    // The header can count credits before the dashboard's own chunk has drawn the page (axe wants its h1).
    await phone.getByRole('heading', { level: 1 }).waitFor();

    await counter.tap();
    const panel = phone.getByRole('tooltip');
    await panel.waitFor();
    expect(await panel.textContent()).toContain('Starter Plan');
    expect(new URL(phone.url()).pathname).toBe('/dashboard');
    await expectNoAxeViolations(phone, 'the credit panel opened by tap');
    await screenshot(phone, 'conveniences-credit-panel-tap');

    // A tap on the page beside it: the Uploads heading, which the panel does not cover.
    await phone.getByRole('heading', { name: 'Uploads' }).tap();
    await panel.waitFor({ state: 'detached' });

    await counter.tap();
    await panel.waitFor();
    await counter.tap();
    await phone.waitForURL('**/pricing');

    // Mouse and keyboard as before: hover opens it, a click goes to pricing.
    await page.goto('/dashboard');
    await page.locator('.credit-button').hover();
    await page.getByRole('tooltip').waitFor();
    await screenshot(page, 'conveniences-credit-panel-tap');
    await page.locator('.credit-button').click();
    await page.waitForURL('**/pricing');
  }, 60_000);
});
