import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TAPS, OUTLINE_CONFIRM_LABEL, type Tap } from '@prodshot/contracts';
import { axeViolations } from './support/axe.js';
import { screenshot } from './support/browser.js';
import { photoFile } from './support/photos.js';
import { buyHundredCredits, signUp, startStackWithPage, stopStackWithPage } from './support/session.js';
import type { RunningStack } from './support/stack.js';

let stack: RunningStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ stack, browser, page } = await startStackWithPage());
}, 180_000);

let signedUp = false;

/** One seller with credits for the whole file, signed up by whichever test runs first (expect.poll needs a test). */
async function seller(): Promise<void> {
  if (signedUp) return;
  await signUp(page, 'Tap Seller', `e2e-taps-${Date.now()}@example.com`);
  await buyHundredCredits(page);
  signedUp = true;
}

afterAll(() => stopStackWithPage({ stack, browser }), 60_000);

const MOBILE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 860 };

/** Where the taps land, as fractions of the photo: the tote's middle, and the plate beside it. */
const TOTE = { x: 0.2, y: 0.5 };
const PLATE = { x: 0.59, y: 0.86 };

/**
 * A canvas tote against the frame's left edge with a red plate touching it, cut off by the bottom
 * edge: whichever the engine takes, its outline runs into the frame (unsure), and the plate is a
 * neighbour to remove.
 */
async function toteBesideAPlate(): Promise<string> {
  const plate = await sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="260"><circle cx="150" cy="150" r="148" fill="#c8332b"/></svg>',
    ),
  )
    .png()
    .toBuffer();
  const tote = await sharp({ create: { width: 420, height: 520, channels: 3, background: '#2f6f8f' } })
    .png()
    .toBuffer();
  const photo = await sharp({ create: { width: 900, height: 900, channels: 3, background: '#f1efe9' } })
    .composite([
      { input: plate, left: 380, top: 640 },
      { input: tote, left: 0, top: 190 },
    ])
    .jpeg()
    .toBuffer();
  return photoFile(photo, 'tote-and-plate.jpg');
}

const creditTotal = async () => Number(await page.getByTestId('credit-total').textContent());
const cutout = () => page.getByAltText('Your product as Prodshot cut it out');
const markers = () =>
  page.getByRole('list', { name: 'Your taps on the photo' }).getByRole('listitem').allTextContents();
const isOutlineCall = (url: string) => /\/api\/images\/[^/]+\/outline$/.test(url);

/** The outline's picture once loaded, by its path: signed URLs of one key differ only in their query. */
async function shownOutline(): Promise<string> {
  await expect
    .poll(() => cutout().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 15_000 })
    .toBe(true);
  return new URL((await cutout().getAttribute('src'))!, page.url()).pathname;
}

/** Waits for the outline call an action makes: the taps it sent, and the outline's path once the new one shows. */
async function outlineAfter(action: () => Promise<void>): Promise<{ sent: Tap[] | undefined; path: string }> {
  const answered = page.waitForResponse(
    (response) => response.request().method() === 'POST' && isOutlineCall(response.url()),
  );
  await action();
  const response = await answered;
  expect(response.status()).toBe(200);
  const sent = (response.request().postDataJSON() as { focus?: Tap[] }).focus;
  const expected = (await response.json()).data.outline.url as string;
  await expect.poll(async () => (await cutout().getAttribute('src')) === expected, { timeout: 10_000 }).toBe(true);
  return { sent, path: await shownOutline() };
}

/** A tap on the outline at a point of the photo: the cutout is the whole frame, so its box is the photo's. */
async function tapOutline(at: { x: number; y: number }): Promise<void> {
  const box = (await cutout().boundingBox())!;
  await cutout().click({ position: { x: box.width * at.x, y: box.height * at.y } });
}

function expectTaps(sent: Tap[] | undefined, expected: { x: number; y: number; keep: boolean }[]) {
  expect(sent).toHaveLength(expected.length);
  expected.forEach((tap, index) => {
    expect(sent![index]!.keep).toBe(tap.keep);
    expect(sent![index]!.x).toBeCloseTo(tap.x, 2);
    expect(sent![index]!.y).toBeCloseTo(tap.y, 2);
  });
}

/** Uploads the photo for a smart run at this size and waits for its unsure outline; no credit is held yet. */
async function uploadAt(
  viewport: { width: number; height: number },
  name: string,
): Promise<{ engine: string; credits: number }> {
  await seller();
  await page.setViewportSize(viewport);
  await page.goto('/dashboard');
  await expect.poll(creditTotal, { timeout: 10_000 }).toBeGreaterThan(0);
  const credits = await creditTotal();
  await page.locator('#image-input').setInputFiles(await toteBesideAPlate());
  await page.getByRole('button', { name: 'Continue with Smart Upload' }).click();
  await page.waitForURL('**/smart-upload');
  await cutout().waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: OUTLINE_CONFIRM_LABEL }).waitFor();
  expect(await page.getByRole('button', { name: 'Keep', exact: true }).getAttribute('aria-pressed')).toBe('true');
  expect(await page.getByText(`0 of ${MAX_TAPS} taps`).isVisible()).toBe(true);
  const engine = await shownOutline();
  await screenshot(page, `${name}-unsure`);
  return { engine, credits };
}

/** Removes the plate with one Remove tap: the outline is made again for it, and the tap is marked. */
async function removeThePlate(engine: string, credits: number): Promise<string> {
  await page.getByRole('button', { name: 'Remove', exact: true }).click();
  expect(await page.getByRole('button', { name: 'Remove', exact: true }).getAttribute('aria-pressed')).toBe('true');
  const removed = await outlineAfter(() => tapOutline(PLATE));
  expectTaps(removed.sent, [{ ...PLATE, keep: false }]);
  expect(removed.path).not.toBe(engine);
  expect(removed.path).toMatch(/outline-taps-[0-9a-f]{16}\.webp$/);
  expect(await markers()).toEqual(['−Remove tap 1']);
  expect(await page.getByText(`1 of ${MAX_TAPS} taps`).isVisible()).toBe(true);
  expect(await page.getByRole('button', { name: OUTLINE_CONFIRM_LABEL }).count()).toBe(0);
  expect(await creditTotal()).toBe(credits);
  return removed.path;
}

/** Starts the smart run the seller held (after taps, Generate is the way on) and answers what it sent as focus. */
async function generate(credits: number): Promise<unknown> {
  const started = page.waitForRequest((request) => request.url().endsWith('/api/images/smart-generate-product-shots'));
  await page
    .getByRole('button', { name: /^(Go ahead anyway|Generate Product Shots)$/ })
    .first()
    .click();
  const body = (await started).postDataJSON() as { focus?: unknown };
  await page.waitForURL('**/smart/*', { timeout: 30_000 });
  await expect.poll(creditTotal, { timeout: 30_000 }).toBeLessThan(credits);
  return body.focus;
}

describe('taps that keep and remove on the outline, in Chromium against the running stack', () => {
  it('at 390 px: removes the plate, adds a keep tap, undoes it, and the paid call sends the taps left', async () => {
    const { engine, credits } = await uploadAt(MOBILE, 'outline-taps');
    const removed = await removeThePlate(engine, credits);
    expect(await axeViolations(page), 'axe with a tap made').toEqual([]);
    await screenshot(page, 'outline-taps-removed');

    await page.getByRole('button', { name: 'Keep', exact: true }).click();
    const kept = await outlineAfter(() => tapOutline(TOTE));
    expectTaps(kept.sent, [
      { ...PLATE, keep: false },
      { ...TOTE, keep: true },
    ]);
    expect(kept.path).not.toBe(removed);
    expect(await markers()).toEqual(['−Remove tap 1', '+Keep tap 2']);
    await screenshot(page, 'outline-taps-two');

    const undone = await outlineAfter(() => page.getByRole('button', { name: 'Undo', exact: true }).click());
    expectTaps(undone.sent, [{ ...PLATE, keep: false }]);
    expect(undone.path).toBe(removed);
    expect(await markers()).toEqual(['−Remove tap 1']);
    expect(await creditTotal()).toBe(credits);

    const focus = (await generate(credits)) as Tap[];
    expectTaps(focus, [{ ...PLATE, keep: false }]);
  }, 300_000);

  it('at 1280 px: removes the plate, undoes it back to the engine’s outline, then confirms it as it is', async () => {
    const { engine, credits } = await uploadAt(DESKTOP, 'outline-taps');
    await removeThePlate(engine, credits);
    await screenshot(page, 'outline-taps-removed');

    const undone = await outlineAfter(() => page.getByRole('button', { name: 'Undo', exact: true }).click());
    expect(undone.sent).toBeUndefined();
    expect(undone.path).toBe(engine);
    expect(await page.getByRole('list', { name: 'Your taps on the photo' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Undo', exact: true }).isDisabled()).toBe(true);
    const confirm = page.getByRole('button', { name: OUTLINE_CONFIRM_LABEL });
    await confirm.waitFor();
    expect(await page.getByRole('button', { name: 'Generate Product Shots' }).isDisabled()).toBe(true);
    expect(await axeViolations(page), 'axe on the undone outline').toEqual([]);
    await screenshot(page, 'outline-taps-undone');

    // Confirmed, the run starts by itself (the coach's tips never hold it) and sends no taps: the server uses the confirmed outline.
    expect(await creditTotal()).toBe(credits);
    const started = page.waitForRequest((request) =>
      request.url().endsWith('/api/images/smart-generate-product-shots'),
    );
    await confirm.click();
    expect((await started).postDataJSON()).not.toHaveProperty('focus');
    await page.waitForURL('**/smart/*', { timeout: 30_000 });
    await expect.poll(creditTotal, { timeout: 30_000 }).toBeLessThan(credits);
  }, 300_000);
});
