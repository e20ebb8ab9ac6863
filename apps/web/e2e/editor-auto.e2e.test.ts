import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusFile } from '@prodshot/fixtures';
import { axeViolations } from './support/axe.js';
import { screenshot, VIEWPORTS } from './support/browser.js';
import { buyHundredCredits, signUp, startStackWithPage, stopStackWithPage } from './support/session.js';
import type { RunningStack } from './support/stack.js';

/** A real product photo from the corpus, as a seller would upload one. */
const CORPUS_PRODUCT = corpusFile('products', 'saleor-blue-plimsolls-1.png');

let stack: RunningStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ stack, browser, page } = await startStackWithPage());
}, 180_000);

afterAll(() => stopStackWithPage({ stack, browser }), 60_000);

const creditTotal = () => page.getByTestId('credit-total').textContent();

describe('editor auto mode in Chromium against the running stack', () => {
  it("makes two shots in the scene the engine picks, charges two credits, and files them under 'Auto'", async () => {
    await signUp(page, 'Auto Seller', `e2e-auto-${Date.now()}@example.com`);
    // Add-on credits without a plan: shots at 1024 px, the quickest to render.
    await buyHundredCredits(page);

    await page.locator('#image-input').setInputFiles(CORPUS_PRODUCT);
    await page.getByRole('button', { name: 'Continue with Manual Design' }).click();
    await page.waitForURL('**/editor');
    await page.getByRole('tab', { name: 'Auto' }).click();
    const panel = page.getByRole('tabpanel');
    expect(await panel.getByRole('radio', { name: '1' }).isChecked()).toBe(true);
    expect(await panel.locator('.auto-cost').textContent()).toBe('Cost: 1 credit');
    await panel.getByText('2', { exact: true }).click();
    expect(await panel.locator('.auto-cost').textContent()).toBe('Cost: 2 credits');
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      expect(await axeViolations(page), `axe on the auto tab at ${viewport.width} px`).toEqual([]);
      const tabs = page.getByRole('tablist');
      expect(
        await tabs.evaluate((list) => list.scrollWidth - list.clientWidth),
        `the three tabs fit at ${viewport.width} px`,
      ).toBe(0);
      await screenshot(page, 'editor-auto-panel');
    }

    const sent = page.waitForRequest((request) => request.url().endsWith('/api/images/generate-product-shots'));
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    expect((await sent).postDataJSON()).toMatchObject({ backgroundType: 'auto', count: 2 });
    await page.getByText('Auto result').waitFor({ timeout: 120_000 });
    const history = page
      .locator('section.history')
      .filter({ has: page.getByRole('heading', { name: 'Session history' }) });
    const entry = history.getByRole('button').first();
    expect(await entry.locator('strong').textContent()).toBe('Auto');
    expect(await entry.locator('.history-scene').textContent()).toMatch(/^Scene: \S/);
    expect(await page.getByRole('list', { name: 'Results' }).getByRole('button').count()).toBe(2);
    await expect.poll(creditTotal, { timeout: 10_000 }).toBe('98');
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await screenshot(page, 'editor-auto-result');
    }
  }, 240_000);
});
