import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alreadySubscribedMessage } from '@prodshot/contracts';
import { axeViolations, WCAG22_AA_TAGS } from './support/axe.js';
import { screenshot, VIEWPORTS } from './support/browser.js';
import { cumulativeLayoutShift, recordLayoutShifts, shiftsSince } from './support/layout-shift.js';
import { drawnBottlePhoto } from './support/photos.js';
import { signUp, startStackWithPage, stopStackWithPage } from './support/session.js';
import type { RunningStack } from './support/stack.js';

/** Issue 32's bar for the smart run page (and the dashboard as its data loads). */
const CLS_LIMIT = 0.05;

let stack: RunningStack;
let browser: Browser;
let page: Page;
let photo: string;

beforeAll(async () => {
  [{ stack, browser, page }, photo] = await Promise.all([startStackWithPage(), drawnBottlePhoto()]);
  await recordLayoutShifts(page);
}, 180_000);

afterAll(() => stopStackWithPage({ stack, browser }), 60_000);

async function expectWcag22(where: string): Promise<void> {
  expect(await axeViolations(page, WCAG22_AA_TAGS), `axe (WCAG 2.2 AA) on ${where}`).toEqual([]);
}

/** The page at each width: what `check` asserts there, axe, then its screenshot. */
async function atEachWidth(name: string, where: string, check: () => Promise<void> = async () => {}): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await check();
    await expectWcag22(`${where} at ${viewport.width} px`);
    await screenshot(page, name);
  }
}

/** Whether the element lies wholly inside the window as it is scrolled now. */
async function inView(target: Locator): Promise<boolean> {
  const box = await target.boundingBox();
  const viewport = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.y + box.height <= viewport.height;
}

/** From the dashboard: choose the photo, Continue with Smart Upload, and go ahead past any coach tip. */
async function startSmartRun(): Promise<void> {
  await page.locator('#image-input').setInputFiles(photo);
  await page.getByRole('button', { name: 'Continue with Smart Upload' }).click();
  await page.waitForURL('**/smart-upload');
  // A tip asks the seller first; without one the run starts by itself.
  const goAhead = page.getByRole('button', { name: 'Go ahead anyway' });
  const outcome = await Promise.race([
    goAhead.waitFor({ timeout: 90_000 }).then(() => 'tip' as const),
    page.waitForURL('**/smart/*', { timeout: 90_000 }).then(() => 'started' as const),
    page
      .locator('.credits-notice')
      .waitFor({ timeout: 90_000 })
      .then(() => 'refused' as const),
  ]);
  if (outcome === 'tip') await goAhead.click();
}

describe("a seller's walk without friction (issue 32: points 1, 3, 4 and 14), in Chromium at 390 and 1280 px", () => {
  it('a new account with no plan is told to pick one, and a refused smart run offers credits with no misleading prefix', async () => {
    await signUp(page, 'Walking Seller', `e2e-walk-${Date.now()}@example.com`);
    await atEachWidth('walk-dashboard-planless', 'the dashboard of an account with no plan', async () => {
      const banner = page.getByRole('note').filter({ hasText: 'Pick a plan to start.' });
      await banner.waitFor();
      expect(await banner.getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe('/pricing');
    });

    await page.setViewportSize(VIEWPORTS[0]);
    await startSmartRun();
    const notice = page.locator('.credits-notice');
    await notice.waitFor({ timeout: 90_000 });
    expect(await notice.textContent()).toMatch(/^Not enough credits/);
    expect(await page.getByText(/Failed to get style recommendations/).count()).toBe(0);
    expect(await notice.getByRole('link', { name: 'Buy credits' }).getAttribute('href')).toBe('/checkout/addon');
    expect(page.url()).toMatch(/\/smart-upload$/);
    // On a phone the notice lands a screen below the photo: it comes into view.
    await expect.poll(() => inView(notice), { timeout: 5_000 }).toBe(true);
    await atEachWidth('walk-smart-upload-402', 'the smart upload refused for credits');
  }, 240_000);

  it("checkout keeps 'Redirecting to Payment...' up until it leaves and never tells the new subscriber they already are one", async () => {
    await page.setViewportSize(VIEWPORTS[0]);
    await page.goto('/checkout?plan=growth');
    const subscribe = page.getByRole('button', { name: 'Subscribe to Growth' });
    await subscribe.waitFor();
    // What the screen showed between the click and leaving, frame by frame.
    await page.evaluate((already) => {
      const seen = ((window as unknown as { __checkoutSeen: string[] }).__checkoutSeen = [] as string[]);
      const look = () => {
        const text = document.body.textContent ?? '';
        if (text.includes(already)) seen.push('already subscribed');
        if (text.includes('Redirecting to Payment...')) seen.push('redirecting');
        if (location.pathname === '/checkout') requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    }, alreadySubscribedMessage('growth'));
    await subscribe.click();
    await page.waitForURL('**/dashboard?subscription=success', { timeout: 30_000 });
    const seen = await page.evaluate(() => (window as unknown as { __checkoutSeen: string[] }).__checkoutSeen);
    expect(seen).toContain('redirecting');
    expect(seen).not.toContain('already subscribed');

    // The toast that follows keeps room under the page for itself.
    await page.getByText('Subscription Successful!').waitFor({ timeout: 10_000 });
    expect(await page.evaluate(() => document.documentElement.style.getPropertyValue('--toast-room'))).toMatch(
      /^\d+px$/,
    );
    await screenshot(page, 'walk-dashboard-toast');
    expect(await page.getByText('Pick a plan to start.').count()).toBe(0);
  }, 120_000);

  it('the phone dashboard loads without a shift, hides Take Photo once a photo is chosen and shows Continue', async () => {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto('/dashboard');
      await page.locator('.sidebar').waitFor();
      await page.waitForTimeout(1500);
      const shifts = await shiftsSince(page, '/dashboard');
      expect(
        cumulativeLayoutShift(shifts),
        `CLS of the dashboard as it loads at ${viewport.width} px: ${JSON.stringify(shifts)}`,
      ).toBeLessThan(CLS_LIMIT);
      const takePhoto = page.getByRole('button', { name: 'Take Photo' });
      expect(await takePhoto.count()).toBe(viewport.width < 768 ? 1 : 0);

      await page.locator('#image-input').setInputFiles(photo);
      const smart = page.getByRole('button', { name: 'Continue with Smart Upload' });
      await smart.waitFor();
      await expect.poll(() => inView(smart), { timeout: 5_000 }).toBe(true);
      expect(await takePhoto.count()).toBe(0);
      await expectWcag22(`the dashboard with a photo chosen at ${viewport.width} px`);
      await screenshot(page, 'walk-dashboard-chosen');
    }
  }, 120_000);

  for (const viewport of VIEWPORTS) {
    it(`the smart run page at ${viewport.width} px keeps its photo and holds still through a whole run (CLS < ${CLS_LIMIT})`, async () => {
      await page.setViewportSize(viewport);
      await page.goto('/dashboard');
      await startSmartRun();
      await page.waitForURL('**/smart/*', { timeout: 60_000 });
      // The photo box is there from the first frame (checked once the run is measured) and its photo arrives while styles generate.
      const box = page.locator('.smart-photo-box');
      const size = await box.boundingBox({ timeout: 5_000 }).catch(() => null);
      const results = page.getByRole('button', { name: 'View All Results' });
      const photoDuringRun = await page
        .getByAltText('Your product')
        .waitFor({ timeout: 30_000 })
        .then(async () => (await results.count()) === 0)
        .catch(() => false);

      await results.waitFor({ timeout: 180_000 });
      await page.waitForTimeout(1500);
      const shifts = await shiftsSince(page, '/smart/');
      expect(
        cumulativeLayoutShift(shifts),
        `CLS through the run at ${viewport.width} px: ${JSON.stringify(shifts)}`,
      ).toBeLessThan(CLS_LIMIT);
      expect(photoDuringRun, 'the photo showed while the run was still going').toBe(true);
      expect(size?.height, 'the photo box had its size from the first frame').toBeGreaterThan(50);
      expect((await box.boundingBox())!.height, 'the photo box kept its size').toBeCloseTo(size!.height, 0);
      expect(await inView(results), 'View All Results is on the first screen').toBe(true);

      const progress = (await page.locator('.progress-card').boundingBox())!;
      const thumbnail = (await box.boundingBox())!;
      if (viewport.width < 860) {
        // On a phone the progress comes first and the photo is a thumbnail in its corner.
        expect(thumbnail.width).toBeLessThanOrEqual(96);
        expect(thumbnail.y).toBeLessThan(progress.y + 100);
      } else {
        expect(thumbnail.x).toBeLessThan(progress.x);
      }
      await expectWcag22(`the finished smart run at ${viewport.width} px`);
      await screenshot(page, 'walk-smart-run');
    }, 300_000);
  }
});
