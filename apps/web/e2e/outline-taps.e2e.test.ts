import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { corpusFile } from '@prodshot/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TAPS, OUTLINE_CONFIRM_LABEL, TAP_TO_FIND_MESSAGE, type Tap } from '@prodshot/contracts';
import { sunglassesOnPebbles } from '@prodshot/testing';
import { axeViolations } from './support/axe.js';
import { screenshot } from './support/browser.js';
import { photoFile } from './support/photos.js';
import { sellerWithCredits, startStackWithPage, stopStackWithPage } from './support/session.js';
import type { RunningStack } from './support/stack.js';

let stack: RunningStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ stack, browser, page } = await startStackWithPage());
}, 180_000);

const seller = sellerWithCredits(() => page, 'Tap Seller', 'e2e-taps');

afterAll(() => stopStackWithPage({ stack, browser }), 60_000);

const MOBILE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 860 };

/** Where the taps land, as fractions of the photo: the tote's middle, and the plate behind it. */
const TOTE = { x: 0.24, y: 0.75 };
const PLATE = { x: 0.75, y: 0.55 };
/** A point of the plate's shadow on the concrete, at the top of the photo. */
const PLATE_SHADOW = { x: 0.3, y: 0.08 };

/**
 * The corpus canvas tote standing in front of the red plate of a real photograph of a fig on
 * concrete (bench/real-photos), as a phone would send it. The model draws the tote, the plate and
 * the plate's shadow as one object, which runs into the frame's top edge: the outline is unsure.
 */
async function toteBesideAPlate(): Promise<string> {
  const room = await sharp(
    fileURLToPath(new URL('../../../bench/real-photos/room-fig-plate-concrete.jpg', import.meta.url)),
  )
    .resize(1280)
    .toBuffer({ resolveWithObject: true });
  const tote = await sharp(corpusFile('products', 'solidus_canvas_tote.png'))
    .resize(560)
    .toBuffer({ resolveWithObject: true });
  const photo = await sharp(room.data)
    .composite([{ input: tote.data, left: 30, top: room.info.height - tote.info.height - 40 }])
    .jpeg({ quality: 85 })
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

/** Whether the shown outline holds points of the photo (opaque there): its picture is the whole frame. */
async function outlineHolds(points: { x: number; y: number }[]): Promise<boolean[]> {
  const picture = await page.request.get((await cutout().getAttribute('src'))!);
  const { data, info } = await sharp(await picture.body())
    .ensureAlpha()
    .extractChannel(3)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return points.map(({ x, y }) => data[Math.floor(y * info.height) * info.width + Math.floor(x * info.width)]! >= 128);
}

/**
 * Removes the plate with one Remove tap: the outline is made again for it, and the tap is marked.
 * That one tap leaves the tote alone: the plate and its shadow are gone from the outline.
 */
async function removeThePlate(engine: string, credits: number): Promise<string> {
  expect(await outlineHolds([TOTE, PLATE, PLATE_SHADOW])).toEqual([true, true, true]);
  await page.getByRole('button', { name: 'Remove', exact: true }).click();
  expect(await page.getByRole('button', { name: 'Remove', exact: true }).getAttribute('aria-pressed')).toBe('true');
  const removed = await outlineAfter(() => tapOutline(PLATE));
  expectTaps(removed.sent, [{ ...PLATE, keep: false }]);
  expect(removed.path).not.toBe(engine);
  expect(removed.path).toMatch(/outline-taps-[0-9a-f]{16}\.webp$/);
  expect(await outlineHolds([TOTE, PLATE, PLATE_SHADOW])).toEqual([true, false, false]);
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

  it('at 390 and 1280 px: a photo refused as empty, the seller taps the sunglasses, checks their outline, and only then pays', async () => {
    await seller();
    await page.setViewportSize(MOBILE);
    await page.goto('/dashboard');
    await expect.poll(creditTotal, { timeout: 10_000 }).toBeGreaterThan(0);
    const credits = await creditTotal();
    const { photo, tap } = await sunglassesOnPebbles();
    await page.locator('#image-input').setInputFiles(await photoFile(photo, 'sunglasses-on-pebbles.jpg'));
    await page.getByRole('button', { name: 'Continue with Smart Upload' }).click();
    await page.waitForURL('**/smart-upload');

    // The engine sees nothing: the refusal says why, the coach too, and the seller is asked to tap.
    await page.getByText(TAP_TO_FIND_MESSAGE).waitFor({ timeout: 60_000 });
    expect(await page.getByRole('alert').first().textContent()).toContain('no product could be found in it');
    expect(await page.getByRole('button', { name: 'Generate Product Shots' }).count()).toBe(0);
    expect(await axeViolations(page), 'axe on the refused photo').toEqual([]);
    await screenshot(page, 'outline-tap-to-find-refused');

    const photoShown = page.getByAltText('Your product');
    const answered = page.waitForResponse(
      (response) => response.request().method() === 'POST' && isOutlineCall(response.url()),
    );
    await photoShown.click({ position: await pointOnPicture(photoShown, tap) });
    const response = await answered;
    expect(response.status()).toBe(200);
    expectTaps((response.request().postDataJSON() as { focus: Tap[] }).focus, [{ ...tap, keep: true }]);

    // Found: the outline to check, the tap marked on it, and nothing held yet.
    await shownOutline();
    expect(await outlineHolds([tap])).toEqual([true]);
    expect(await markers()).toEqual(['+Keep tap 1']);
    expect(await page.getByText(TAP_TO_FIND_MESSAGE).count()).toBe(0);
    expect(await creditTotal()).toBe(credits);
    await screenshot(page, 'outline-tap-to-find-found');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'outline-tap-to-find-found');

    expectTaps((await generate(credits)) as Tap[], [{ ...tap, keep: true }]);
  }, 300_000);
});

/** Where a point of the photo is on its picture, shown contained (letterboxed) in its element. */
async function pointOnPicture(
  picture: ReturnType<Page['getByAltText']>,
  at: { x: number; y: number },
): Promise<{ x: number; y: number }> {
  return picture.evaluate((img: HTMLImageElement, point) => {
    const scale = Math.min(img.clientWidth / img.naturalWidth, img.clientHeight / img.naturalHeight);
    const left = (img.clientWidth - img.naturalWidth * scale) / 2;
    const top = (img.clientHeight - img.naturalHeight * scale) / 2;
    return { x: left + point.x * img.naturalWidth * scale, y: top + point.y * img.naturalHeight * scale };
  }, at);
}
