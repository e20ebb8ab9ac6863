import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, errors, type Browser, type Page } from 'playwright-core';
import { repoRoot } from './stack.js';

export const CHROMIUM = process.env.PRODSHOT_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.join(repoRoot, 'bench', 'out', 'screenshots');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A full-page screenshot under bench/out/screenshots (git-ignored): `{name}-{width}.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  // A page still loading its data shows spinners: picture it once what it fetched has arrived.
  await page
    .locator('.spinner-page, .spinner-inline')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
  // Lazy images below the fold load only when scrolled to; wait for every image the page has.
  await page.evaluate(async () => {
    for (const img of Array.from(document.images)) img.loading = 'eager';
    await Promise.all(
      Array.from(document.images).map((img) =>
        img.complete ? null : new Promise((r) => ((img.onload = r), (img.onerror = r))),
      ),
    );
    // decoding="async" pictures may still be undecoded once loaded, and a full-page capture shows them blank.
    await Promise.all(Array.from(document.images).map((img) => img.decode().catch(() => undefined)));
  });
  await page.evaluate(() => window.scrollTo(0, 0));
  await capture(page, path.join(SCREENSHOT_DIR, `${name}-${width}.png`));
}

/** What the seller sees now, the screen and not the whole page: fixed bars and toasts where they are. */
export async function screenView(page: Page, name: string): Promise<void> {
  await capture(page, path.join(SCREENSHOT_DIR, `${name}-${page.viewportSize()?.width ?? 0}.png`), false);
}

/**
 * Headless Chromium now and then never answers a capture (CI saw one wait out 30 s on a still page that
 * was pictured in 0.3 s on every other run); a second capture after a fresh frame is answered. A page that
 * cannot be pictured twice still fails the test.
 */
async function capture(page: Page, file: string, fullPage = true): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  try {
    await page.screenshot({ path: file, fullPage, timeout: 15_000 });
  } catch (error) {
    if (!(error instanceof errors.TimeoutError)) throw error;
    await page.evaluate(() => new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame))));
    await page.screenshot({ path: file, fullPage, timeout: 45_000 });
  }
}

export const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;
