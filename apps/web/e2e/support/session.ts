import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations } from './axe.js';
import { launchChromium, VIEWPORTS } from './browser.js';
import { startStack, type RunningStack } from './stack.js';

export interface StackWithPage {
  stack: RunningStack;
  browser: Browser;
  /** A desktop-width page on the stack's origin. */
  page: Page;
}

/** The built stack and a Chromium page on it: what each e2e file starts before its tests. */
export async function startStackWithPage(
  options: { env?: NodeJS.ProcessEnv; acceptDownloads?: boolean } = {},
): Promise<StackWithPage> {
  const [stack, browser] = await Promise.all([startStack({ env: options.env }), launchChromium()]);
  const context = await browser.newContext({
    baseURL: stack.baseUrl,
    viewport: VIEWPORTS[1],
    acceptDownloads: options.acceptDownloads ?? false,
  });
  return { stack, browser, page: await context.newPage() };
}

/** Stops what startStackWithPage started, or the part of it that did start. */
export async function stopStackWithPage(running: Partial<StackWithPage>): Promise<void> {
  await running.browser?.close();
  await running.stack?.stop();
}

/** A new seller, signed up through the embedded sign-in as a visitor does, on their dashboard. */
export async function signUp(page: Page, name: string, email: string): Promise<void> {
  await page.goto('/sign-up');
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL('**/dashboard');
}

export async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
  expect(await axeViolations(page), `axe on ${where}`).toEqual([]);
}

/** Uploads an image through the API with the page's own session, for data a flow does not need to click through. */
export async function uploadViaApi(page: Page, bytes: number[], name: string): Promise<void> {
  const status = await page.evaluate(
    async ({ bytes, name }) => {
      const form = new FormData();
      form.append('name', name);
      form.append('image', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), `${name}.png`);
      const response = await fetch('/api/images/upload', {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${localStorage.getItem('auth-token')}` },
      });
      return response.status;
    },
    { bytes, name },
  );
  expect(status).toBe(201);
}

/** Calls the API as the page's signed-in seller (its bearer token), from the page's own origin. */
export async function callApi(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown }> {
  return page.evaluate(
    async ({ method, path, body, headers }) => {
      const response = await fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${localStorage.getItem('auth-token')}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, json: await response.json().catch(() => null) };
    },
    { method, path, body, headers },
  );
}

/** Buys the 100-credit add-on through the local checkout, as a seller without a plan does, and waits for the header to count it. */
export async function buyHundredCredits(page: Page): Promise<void> {
  await page.goto('/checkout/addon?plan=addon-100');
  await page.getByRole('button', { name: 'Buy Credits' }).click();
  await page.waitForURL('**/dashboard?addon=success');
  await expect.poll(() => page.getByTestId('credit-total').textContent(), { timeout: 10_000 }).toBe('100');
}

/**
 * One seller with 100 credits for a whole test file, signed up by whichever test runs first (expect.poll
 * needs a test). `page` is read when called: the file opens it in beforeAll.
 */
export function sellerWithCredits(page: () => Page, name: string, emailPrefix: string): () => Promise<void> {
  let signedUp = false;
  return async () => {
    if (signedUp) return;
    await signUp(page(), name, `${emailPrefix}-${Date.now()}@example.com`);
    await buyHundredCredits(page());
    signedUp = true;
  };
}
