import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlakyImageModel, type FlakyImageModel } from '@prodshot/testing';
import { axeViolations } from './support/axe.js';
import { screenshot, VIEWPORTS } from './support/browser.js';
import { buyHundredCredits, signUp, startStackWithPage, stopStackWithPage } from './support/session.js';
import type { RunningStack } from './support/stack.js';
import { drawnBottlePhoto } from './support/photos.js';

// The stack's hosted model is a loopback OpenAI that refuses 'Night Market' once, for real: that style
// fails, is refunded, and its retry succeeds.
const STYLES = [
  { name: 'Sunlit Terrace', prompt: 'terracotta tiles on a sunlit terrace', failures: 0 },
  { name: 'Night Market', prompt: 'a lantern-lit night market stall', failures: 1 },
  { name: 'Paper Studio', prompt: 'seamless cream paper backdrop', failures: 0 },
];

let model: FlakyImageModel;
let stack: RunningStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  model = await startFlakyImageModel(STYLES);
  ({ stack, browser, page } = await startStackWithPage({
    env: { IMAGE_MODEL: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: model.baseUrl },
  }));
}, 180_000);

afterAll(async () => {
  await stopStackWithPage({ stack, browser });
  await model?.close();
}, 60_000);

const creditTotal = () => page.getByTestId('credit-total').textContent();
const card = (name: string) => page.getByTestId('style-card').filter({ hasText: name });

async function everyViewport(name: string, where: string) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    expect(await axeViolations(page), `axe on ${where} at ${viewport.width} px`).toEqual([]);
    await screenshot(page, name);
  }
}

describe('iterating on results in Chromium against the running stack', () => {
  it('retries a style the model refused (charged once it works), makes more like a shot, and opens it in the editor', async () => {
    await signUp(page, 'Iterate Seller', `e2e-iterate-${Date.now()}@example.com`);
    await buyHundredCredits(page);

    await page.goto('/smart-upload');
    await page.locator('input[type=file]').setInputFiles(await drawnBottlePhoto());
    const styles = page.getByRole('group', { name: 'Number of styles' });
    await styles.getByText('3', { exact: true }).click();
    expect(await page.locator('.smart-count .auto-cost').textContent()).toBe('Cost: 3 credits');
    const started = page.waitForRequest((request) =>
      request.url().endsWith('/api/images/smart-generate-product-shots'),
    );
    await page.getByRole('button', { name: 'Generate Product Shots' }).click();
    expect((await started).postDataJSON()).toMatchObject({ styleCount: 3 });
    await page.waitForURL('**/smart/*');

    // The refused style fails and its credit comes back: two shots cost two.
    await card('Night Market')
      .getByText(/^Failed:/)
      .waitFor({ timeout: 120_000 });
    await card('Sunlit Terrace').getByText('Complete!').waitFor({ timeout: 120_000 });
    await card('Paper Studio').getByText('Complete!').waitFor({ timeout: 120_000 });
    await expect.poll(creditTotal, { timeout: 10_000 }).toBe('98');
    const retry = card('Night Market').getByRole('button', {
      name: 'Retry · 1 credit if it works (the Night Market style)',
    });
    expect(await retry.textContent()).toBe('Retry · 1 credit if it works (the Night Market style)');
    await everyViewport('iterate-smart-failed', 'a smart run with a failed style');

    const retried = page.waitForResponse((response) => response.url().endsWith('/retry'));
    await retry.click();
    expect((await retried).status()).toBe(202);
    await card('Night Market').getByText('Complete!').waitFor({ timeout: 120_000 });
    await expect.poll(creditTotal, { timeout: 10_000 }).toBe('97');
    expect(model.edits.filter((prompt) => prompt === STYLES[1]!.prompt)).toHaveLength(2);

    const more = card('Sunlit Terrace').getByRole('button', {
      name: 'More like this · 1 credit (the Sunlit Terrace shot)',
    });
    const asked = page.waitForResponse((response) => response.url().endsWith('/more-like-this'));
    await more.click();
    const answer = await (await asked).json();
    expect(answer.data).toMatchObject({
      status: 'queued',
      from: { index: expect.any(Number) },
      seed: expect.any(Number),
    });
    const take = card('Sunlit Terrace').getByTestId('new-take');
    await take.getByText('New take ready').waitFor({ timeout: 120_000 });
    await expect.poll(creditTotal, { timeout: 10_000 }).toBe('96');
    // The new take is another picture: the model painted it afresh.
    expect(model.edits.filter((prompt) => prompt === STYLES[0]!.prompt)).toHaveLength(2);
    await everyViewport('iterate-smart-actions', 'a smart run with its iterate actions');

    await card('Sunlit Terrace').getByRole('button', { name: 'Open in editor (the Sunlit Terrace shot)' }).click();
    await page.waitForURL('**/editor');
    expect(await page.getByRole('tab', { name: 'Custom Background' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('textbox', { name: 'Describe the background' }).inputValue()).toBe(STYLES[0]!.prompt);
    expect(await page.getByText(/Starting from/).textContent()).toContain('Sunlit Terrace');
    await page.getByRole('group', { name: 'Number of images' }).getByText('2', { exact: true }).click();
    expect(await page.locator('.editor-count .auto-cost').textContent()).toBe('Cost: 2 credits');
    await everyViewport('iterate-editor-preselected', 'the editor opened from a shot');

    // History: the popup of any output offers the same actions.
    await page.goto('/all-generations');
    await page
      .getByRole('button', { name: /^Open generation / })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'More like this · 1 credit (this shot)' }).waitFor();
    await dialog.getByRole('button', { name: 'Open in editor (this shot)' }).waitFor();
    await everyViewport('iterate-history-popup', 'the history popup');
  }, 420_000);
});
