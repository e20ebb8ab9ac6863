import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, WCAG22_AA_TAGS } from './support/axe.js';
import { screenshot, screenView, VIEWPORTS } from './support/browser.js';
import { callApi, signUp, startStackWithPage, stopStackWithPage, uploadViaApi } from './support/session.js';
import type { RunningStack } from './support/stack.js';

/** Thirty uploads: three numbered pages of 12, the third reached through the API's second cursor page. */
const UPLOADS = 30;
const [PHONE] = VIEWPORTS;

let stack: RunningStack;
let browser: Browser;
let page: Page;

/** A small product photo of its own (a dark box on a pale wall), so this suite needs no corpus. */
async function productPhoto(): Promise<number[]> {
  const box = await sharp({ create: { width: 150, height: 210, channels: 3, background: '#283a5c' } })
    .png()
    .toBuffer();
  return [
    ...(await sharp({ create: { width: 480, height: 480, channels: 3, background: '#ece6dc' } })
      .composite([{ input: box, left: 165, top: 135 }])
      .png()
      .toBuffer()),
  ];
}

/** Buttons a phone's thumb presses (every `.button` but the small ones) shorter than 44 CSS px. */
async function shortPrimaryButtons(target: Page): Promise<string[]> {
  return target
    .locator('.button:not(.button-small)')
    .evaluateAll((buttons) =>
      buttons
        .filter((button) => button.getClientRects().length > 0 && button.getBoundingClientRect().height < 44)
        .map(
          (button) => `${button.textContent?.trim() ?? ''} (${Math.round(button.getBoundingClientRect().height)} px)`,
        ),
    );
}

/**
 * Controls smaller than 24 × 24 CSS px. Stricter than axe's target-size, which passes a small target
 * with room around it: here only a link inside a line of text is let off (WCAG 2.5.8's inline exception).
 */
async function smallTargets(target: Page): Promise<string[]> {
  return target.evaluate(() => {
    const controls = document.querySelectorAll<HTMLElement>(
      'a[href], button, summary, select, input:not([type="hidden"]), textarea, [role="button"], [role="tab"]',
    );
    const inText = (element: HTMLElement) =>
      getComputedStyle(element).display === 'inline' &&
      (element.parentElement?.textContent ?? '').trim() !== (element.textContent ?? '').trim();
    return (
      Array.from(controls)
        .filter(
          (element) =>
            element.getClientRects().length > 0 &&
            !element.closest('[aria-hidden="true"], [inert]') &&
            !inText(element),
        )
        .map((element) => ({ element, box: element.getBoundingClientRect() }))
        // A visually hidden control (a file input behind its label) is no target of its own.
        .filter(({ box }) => box.width > 1 && box.height > 1 && (box.width < 24 || box.height < 24))
        .map(
          ({ element, box }) =>
            `${element.tagName.toLowerCase()}.${element.className} '${(element.textContent ?? element.getAttribute('aria-label') ?? '').trim().slice(0, 30)}' ${Math.round(box.width)}×${Math.round(box.height)}`,
        )
    );
  });
}

/**
 * At a phone's and a desktop's width: axe's WCAG 2.2 AA rules (target-size among them) find nothing,
 * no control is under 24 × 24 px, every primary button on the phone is 44 px tall, and the page is pictured.
 */
async function checkAtEveryWidth(where: string, name: string): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    // The route's own heading: its code and data have arrived, so axe reads the page, not a blank frame.
    await page.locator('main h1').first().waitFor();
    await page
      .locator('.spinner-page, .spinner-inline')
      .first()
      .waitFor({ state: 'detached', timeout: 15_000 })
      .catch(() => undefined);
    expect(await axeViolations(page, WCAG22_AA_TAGS), `axe (WCAG 2.2 AA) on ${where} at ${viewport.width} px`).toEqual(
      [],
    );
    expect(await smallTargets(page), `controls under 24 × 24 px on ${where} at ${viewport.width} px`).toEqual([]);
    if (viewport === PHONE)
      expect(await shortPrimaryButtons(page), `primary buttons under 44 px on ${where}`).toEqual([]);
    await screenshot(page, name);
  }
}

beforeAll(async () => {
  ({ stack, browser, page } = await startStackWithPage());
}, 180_000);

afterAll(() => stopStackWithPage({ stack, browser }), 60_000);

describe("a seller's walk without friction, in Chromium at 390 and 1280 px", () => {
  it('the phone home shows the headline and Get Started in the first screen', async () => {
    await page.setViewportSize(PHONE);
    await page.goto('/');
    const headline = page.getByRole('heading', { level: 1 });
    const getStarted = page.locator('.hero').getByRole('link', { name: 'Get Started' });
    await getStarted.waitFor();
    const [title, action] = [await headline.boundingBox(), await getStarted.boundingBox()];
    expect(title!.y + title!.height, 'headline bottom').toBeLessThanOrEqual(PHONE.height);
    expect(action!.y + action!.height, 'Get Started bottom').toBeLessThanOrEqual(PHONE.height);
    await screenView(page, 'seller-walk-home-first-screen');
    await checkAtEveryWidth('home', 'seller-walk-home');
  }, 60_000);

  it('pricing, with its FAQ rows', async () => {
    await page.goto('/pricing');
    await page.locator('.faq summary').first().waitFor();
    await page.setViewportSize(PHONE);
    const row = await page.locator('.faq summary').first().boundingBox();
    expect(row!.height, 'a FAQ row is a thumb tall').toBeGreaterThanOrEqual(44);
    await checkAtEveryWidth('pricing', 'seller-walk-pricing');
  }, 60_000);

  it('the dashboard, then 30 uploads on numbered pages with the page window, the profile and the add-on checkout', async () => {
    await page.setViewportSize(VIEWPORTS[1]);
    await signUp(page, 'Pia Polish', `polish-${Date.now()}@example.com`);
    await checkAtEveryWidth('the dashboard', 'seller-walk-dashboard');

    const photo = await productPhoto();
    for (let n = 0; n < UPLOADS; n += 1) await uploadViaApi(page, photo, `crate-${String(n).padStart(2, '0')}`);
    await page.goto('/all-uploads');
    const tiles = page.locator('[data-testid="image-grid"] > li');
    await tiles.first().waitFor();
    // Every page is numbered from the first answer: no 'Load more', no '24+'.
    expect(await page.locator('.page-header .muted').textContent()).toBe(`${UPLOADS} images`);
    const numbers = () => page.locator('nav[aria-label="Pagination"] li').allTextContents();
    expect(await numbers()).toEqual(['1', '2', '3']);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    expect(await tiles.count()).toBe(12);
    await checkAtEveryWidth('/all-uploads', 'seller-walk-all-uploads');

    await page.getByRole('button', { name: 'Page 3' }).click();
    await page.getByText('crate-00', { exact: true }).waitFor();
    expect(await tiles.count()).toBe(UPLOADS - 24);
    expect(await page.getByRole('button', { name: 'Page 3' }).getAttribute('aria-current')).toBe('page');
    await checkAtEveryWidth('/all-uploads page 3', 'seller-walk-all-uploads-page-3');

    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Recent uploads' }).waitFor();
    await checkAtEveryWidth('the profile', 'seller-walk-profile');

    // A page of radio choices: each radio is a target of its own.
    await page.goto('/checkout/addon?plan=addon-100');
    await page.getByRole('radio').first().waitFor();
    await checkAtEveryWidth('the add-on checkout', 'seller-walk-checkout-addon');
  }, 300_000);

  it('a lifestyle shot’s Amazon report speaks plain words, says it is for secondary images, and has one distinct fix per failing line', async () => {
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
    const made = await callApi(
      page,
      'POST',
      '/api/images/generate-product-shots',
      { imageId, backgroundType: 'marble', count: 1 },
      { 'idempotency-key': crypto.randomUUID() },
    );
    expect(made.status).toBe(200);
    const [output] = (
      (await callApi(page, 'GET', '/api/images/recent/generations?limit=1')).json as { data: { id: string }[] }
    ).data;

    await page.setViewportSize(VIEWPORTS[1]);
    await page.goto('/all-generations');
    await page.locator('[data-testid="image-grid"] > li').first().waitFor();
    await checkAtEveryWidth('/all-generations', 'seller-walk-all-generations');

    await page.getByRole('button', { name: `Open generation ${output!.id}` }).click();
    const check = page.getByRole('dialog').getByRole('region', { name: 'Marketplace check' });
    await check.getByText(/Amazon main image checks need attention/).waitFor({ timeout: 60_000 });
    expect(await check.locator('.compliance-note').textContent()).toMatch(
      /^Lifestyle shots like this one are for secondary images/,
    );
    const background = check.locator('[data-check="background"]');
    expect(await background.locator('strong').textContent()).toBe(
      'Background is not pure white: 100% of the border should be #FFFFFF',
    );
    expect(await check.textContent()).not.toMatch(/RGB 255|border pixels/);
    const failing = await check.locator('.check-fail').count();
    const fixes = await check.locator('.compliance-lines button').allTextContents();
    expect(fixes).toHaveLength(failing);
    expect(new Set(fixes).size, `fix buttons: ${fixes.join(', ')}`).toBe(fixes.length);
    await check.locator('.compliance-lines').scrollIntoViewIfNeeded();
    await checkAtEveryWidth('the compliance report', 'seller-walk-compliance');
  }, 300_000);
});
