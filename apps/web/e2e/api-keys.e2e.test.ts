import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, VIEWPORTS } from './support/browser.js';
import { expectNoAxeViolations, signUp, startStackWithPage, stopStackWithPage } from './support/session.js';
import type { RunningStack } from './support/stack.js';

/**
 * Profile → API keys in Chromium against the built stack: a key created and shown once, listed
 * with its last use, then revoked, after which the API refuses it.
 */

let stack: RunningStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ stack, browser, page } = await startStackWithPage());
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });
}, 180_000);

afterAll(async () => {
  await stopStackWithPage({ stack, browser });
}, 60_000);

/** Calls the API from the page's origin with an API key instead of the session. */
async function callWithKey(key: string, path: string): Promise<number> {
  return page.evaluate(
    async ({ key, path }) => (await fetch(path, { headers: { authorization: `Bearer ${key}` } })).status,
    { key, path },
  );
}

/** Full-page pictures at the phone and desktop widths, and no axe violations at either. */
async function pictureBothWidths(name: string): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page, `${name} at ${viewport.width} px`);
    await screenshot(page, name);
  }
}

describe('API keys on the profile', () => {
  it('creates a key shown once, lists it with its last use, and revokes it', async () => {
    await signUp(page, 'Kai Keys', 'kai-keys@example.com');
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'API keys' });
    await section.getByText('No API keys yet.').waitFor();

    await section.getByLabel('Key name').fill('Shop sync');
    await section.getByRole('button', { name: 'Create key' }).click();
    const shown = section.getByTestId('new-api-key');
    await shown.waitFor();
    const key = (await shown.textContent()) ?? '';
    expect(key).toMatch(/^psk_test_[0-9A-Za-z]{43}$/);
    await section.getByText('it will not be shown again').waitFor();
    await section.getByRole('button', { name: 'Copy' }).click();
    await section.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    const list = section.getByRole('list', { name: 'Your API keys' });
    await list.getByText('Never used').waitFor();
    await pictureBothWidths('api-keys-created');

    await section.getByRole('button', { name: 'I have copied it' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(key);

    // The key works as the seller; the profile shows its use and where it came from.
    expect(await callWithKey(key, '/api/images')).toBe(200);
    await page.reload();
    await list.getByText(`${key.slice(0, 13)}…`).waitFor();
    await list.getByText(/Last used .* from 127\.0\.0\.1/).waitFor();
    expect(await page.content()).not.toContain(key);
    await pictureBothWidths('api-keys-listed');

    await list.getByRole('button', { name: 'Revoke Shop sync' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this key?' });
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await section.getByText('No API keys yet.').waitFor();
    expect(await callWithKey(key, '/api/images')).toBe(401);
  });
});
