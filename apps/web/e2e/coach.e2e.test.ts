import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusFile } from '@prodshot/fixtures';
import { screenshot, VIEWPORTS } from './support/browser.js';
import {
  buyHundredCredits,
  expectNoAxeViolations,
  signUp,
  startStackWithPage,
  stopStackWithPage,
} from './support/session.js';
import type { RunningStack } from './support/stack.js';
import { photoFile } from './support/photos.js';

const BLUR_ADVICE =
  'Hold the phone steady (rest it on something) and tap the shoe on screen to focus before you shoot.';

/** A corpus shoe, out of focus: what the coach must catch. Named so the advice can say 'shoe'. */
async function blurredShoe(name = 'blue-plimsolls shoe.png'): Promise<string> {
  const photo = await sharp(corpusFile('products', 'saleor-blue-plimsolls-1.png')).blur(10).png().toBuffer();
  return photoFile(photo, name);
}

let stack: RunningStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ stack, browser, page } = await startStackWithPage());
}, 180_000);

afterAll(() => stopStackWithPage({ stack, browser }), 60_000);

const creditTotal = () => page.getByTestId('credit-total').textContent();

describe('the photo coach in Chromium against the running stack', () => {
  it('warns of a blurred corpus photo with its advice, and the run starts by itself with the tip kept in sight', async () => {
    await signUp(page, 'Coached Seller', `e2e-coach-${Date.now()}@example.com`);
    await buyHundredCredits(page);

    await page.locator('#image-input').setInputFiles(await blurredShoe());
    await page.getByRole('button', { name: 'Continue with Smart Upload' }).click();
    await page.waitForURL('**/smart-upload');
    await page.getByText(BLUR_ADVICE).waitFor({ timeout: 30_000 });
    expect(await page.getByText('This photo looks blurry.').isVisible()).toBe(true);
    // A tip is no block: once the product is found the run starts with no word from the seller, and the tip stays beside its photo.
    await page.waitForURL('**/smart/*', { timeout: 90_000 });
    await page.getByRole('heading', { name: 'A tip for your next photo' }).waitFor({ timeout: 30_000 });
    expect(await page.getByText(BLUR_ADVICE).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Go ahead anyway' }).count()).toBe(0);
    await expect.poll(async () => Number(await creditTotal()), { timeout: 30_000 }).toBeLessThan(100);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await expectNoAxeViolations(page, `the coach on the smart run page at ${viewport.width} px`);
      await screenshot(page, 'coach-smart-run');
    }
  }, 240_000);

  it('shows the same warning when the seller picks that upload again on the dashboard', async () => {
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Use blue-plimsolls shoe.png' }).click();
    await page.getByText(BLUR_ADVICE).waitFor({ timeout: 10_000 });
    expect(await page.getByText(/you can go ahead with this photo as it is/).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Continue with Smart Upload' }).isEnabled()).toBe(true);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await expectNoAxeViolations(page, `the coach on the dashboard at ${viewport.width} px`);
      await screenshot(page, 'coach-dashboard');
    }

    await page.getByRole('button', { name: 'Continue with Manual Design' }).click();
    await page.waitForURL('**/editor');
    await page.getByText(BLUR_ADVICE).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Go ahead anyway' }).waitFor({ timeout: 30_000 });
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await expectNoAxeViolations(page, `the coach in the editor at ${viewport.width} px`);
      await screenshot(page, 'coach-editor');
    }
    // Going ahead in the editor does what it says: it generates with the background chosen (Lifestyle, preselected).
    const credits = Number(await creditTotal());
    const sent = page.waitForRequest((request) => request.url().endsWith('/api/images/generate-product-shots'));
    await page.getByRole('button', { name: 'Go ahead anyway' }).click();
    expect((await sent).postDataJSON()).toMatchObject({ backgroundType: 'lifestyle', count: 1 });
    await page.getByText('Lifestyle shot ready').waitFor({ timeout: 120_000 });
    await expect.poll(async () => Number(await creditTotal()), { timeout: 10_000 }).toBe(credits - 1);
  }, 90_000);

  it('gives each photo of a batch one line of tips, not the same notice three times', async () => {
    await page.goto('/dashboard');
    await page
      .locator('#image-input')
      .setInputFiles(
        await Promise.all(['left shoe.png', 'right shoe.png', 'spare shoe.png'].map((name) => blurredShoe(name))),
      );
    await page.waitForURL('**/batches/new');
    const items = page.getByTestId('batch-item');
    await items.nth(2).waitFor();
    for (let n = 0; n < 3; n++)
      await items.nth(n).locator('summary', { hasText: 'Tip: This photo looks blurry.' }).waitFor({ timeout: 30_000 });
    expect(await page.locator('summary', { hasText: 'Tip:' }).count()).toBe(3);
    expect(await page.getByRole('heading', { name: /before you spend credits/ }).count()).toBe(0);
    await items.nth(0).locator('summary').click();
    await page.getByText(BLUR_ADVICE).first().waitFor();
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await expectNoAxeViolations(page, `the coach in a batch draft at ${viewport.width} px`);
      await screenshot(page, 'coach-batch');
    }
  }, 90_000);
});
