import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTLINE_CONFIRM_LABEL, OUTLINE_PROMPT } from '@prodshot/contracts';
import { axeViolations } from './support/axe.js';
import { screenshot, VIEWPORTS } from './support/browser.js';
import { photoFile } from './support/photos.js';
import { buyHundredCredits, signUp, startStackWithPage, stopStackWithPage } from './support/session.js';
import type { RunningStack } from './support/stack.js';

let stack: RunningStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ stack, browser, page } = await startStackWithPage());
}, 180_000);

afterAll(() => stopStackWithPage({ stack, browser }), 60_000);

const creditTotal = () => page.getByTestId('credit-total').textContent();

/** A tote photographed against the frame's left edge: the engine cannot be sure its cutout is all of the product. */
async function toteAgainstTheEdge(): Promise<string> {
  const tote = await sharp({ create: { width: 420, height: 520, channels: 3, background: '#2f6f8f' } })
    .png()
    .toBuffer();
  const photo = await sharp({ create: { width: 900, height: 900, channels: 3, background: '#f1efe9' } })
    .composite([{ input: tote, left: 0, top: 190 }])
    .jpeg()
    .toBuffer();
  return photoFile(photo, 'canvas-tote.jpg');
}

describe('the outline a seller sees before paying, in Chromium against the running stack', () => {
  it('shows the cutout after upload, holds no credit for an unsure one until the seller confirms it, then generates', async () => {
    await signUp(page, 'Outline Seller', `e2e-outline-${Date.now()}@example.com`);
    await buyHundredCredits(page);

    await page.locator('#image-input').setInputFiles(await toteAgainstTheEdge());
    const subject = page.waitForResponse((response) => /\/api\/images\/[^/]+\/subject$/.test(response.url()));
    await page.getByRole('button', { name: 'Continue with Smart Upload' }).click();
    await page.waitForURL('**/smart-upload');
    await subject;
    const cutout = page.getByAltText('Your product as Prodshot cut it out');
    await cutout.waitFor({ timeout: 60_000 });
    expect(await page.getByText(OUTLINE_PROMPT).isVisible()).toBe(true);
    const confirm = page.getByRole('button', { name: OUTLINE_CONFIRM_LABEL });
    expect(await confirm.isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Generate Product Shots' }).isDisabled()).toBe(true);
    expect(page.url()).toMatch(/\/smart-upload$/);
    expect(await creditTotal()).toBe('100');
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      expect(await axeViolations(page), `axe on the outline check at ${viewport.width} px`).toEqual([]);
      await screenshot(page, 'outline-unsure');
    }

    // A tap on the tote remakes the outline for it; the tap is the seller's choice, so Generate opens.
    const remade = page.waitForResponse((response) => /\/api\/images\/[^/]+\/outline$/.test(response.url()));
    const box = (await cutout.boundingBox())!;
    await cutout.click({ position: { x: box.width * 0.2, y: box.height * 0.5 } });
    expect((await remade).status()).toBe(200);
    await page.getByText('Fixed with your tap: your shots use this outline.').waitFor();
    expect(await creditTotal()).toBe('100');
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await screenshot(page, 'outline-fixed');
    }

    // A fixed outline waits for the seller to say they are done tapping: Generate is the way on, offered only now.
    await page.getByRole('button', { name: 'Generate Product Shots' }).click();
    await page.waitForURL('**/smart/*', { timeout: 30_000 });
    await expect.poll(async () => Number(await creditTotal()), { timeout: 30_000 }).toBeLessThan(100);
  }, 300_000);

  it('confirms an unsure outline as it is with "Yes, that\'s my product", and only then holds credits', async () => {
    await page.goto('/dashboard');
    await expect.poll(async () => Number(await creditTotal()), { timeout: 10_000 }).toBeGreaterThan(0);
    const before = Number(await creditTotal());
    await page.locator('#image-input').setInputFiles(await toteAgainstTheEdge());
    await page.getByRole('button', { name: 'Continue with Smart Upload' }).click();
    await page.waitForURL('**/smart-upload');
    const confirm = page.getByRole('button', { name: OUTLINE_CONFIRM_LABEL });
    await confirm.waitFor({ timeout: 60_000 });
    expect(Number(await creditTotal())).toBe(before);
    expect(await page.getByRole('button', { name: 'Go ahead anyway' }).count()).toBe(0);
    // Confirmed, the run starts by itself (the coach's tips never hold it) and sends no focus: the server uses the confirmed outline.
    const started = page.waitForRequest((request) =>
      request.url().endsWith('/api/images/smart-generate-product-shots'),
    );
    await confirm.click();
    expect((await started).postDataJSON()).not.toHaveProperty('focus');
    await page.waitForURL('**/smart/*', { timeout: 30_000 });
    await expect.poll(async () => Number(await creditTotal()), { timeout: 30_000 }).toBeLessThan(before);
  }, 240_000);
});
