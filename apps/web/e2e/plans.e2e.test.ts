import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_FEATURE_NAMES, planRequiredMessage, PLANS } from '@prodshot/contracts';
import { screenshot, VIEWPORTS } from './support/browser.js';
import { expectNoAxeViolations, signUp, startStackWithPage, stopStackWithPage } from './support/session.js';
import type { RunningStack } from './support/stack.js';

let stack: RunningStack;
let browser: Browser;
let page: Page;
let photo: string;

/** A plain product on a light backdrop: enough for the screens, nothing here renders a shot. */
async function productPhoto(): Promise<string> {
  const product = await sharp({ create: { width: 200, height: 320, channels: 3, background: '#2a6' } })
    .png()
    .toBuffer();
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'prodshot-plans-e2e-')), 'box.png');
  await writeFile(
    file,
    await sharp({ create: { width: 600, height: 600, channels: 3, background: '#f0f0f0' } })
      .composite([{ input: product, left: 200, top: 140 }])
      .png()
      .toBuffer(),
  );
  return file;
}

async function atEachWidth(target: Page, name: string, show: () => Promise<void>): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await target.setViewportSize(viewport);
    await show();
    await screenshot(target, name);
  }
}

beforeAll(async () => {
  [{ stack, browser, page }, photo] = await Promise.all([startStackWithPage(), productPhoto()]);
}, 180_000);

afterAll(() => stopStackWithPage({ stack, browser }), 60_000);

describe('what a plan includes, in Chromium against the running stack', () => {
  it('shows each card with the features its plan includes and, struck through, the ones it lacks', async () => {
    await atEachWidth(page, 'pricing-plans', async () => {
      await page.goto('/pricing');
      await page.getByRole('heading', { name: 'Pro' }).waitFor();
    });
    for (const plan of PLANS) {
      const card = page.locator('li.plan', { has: page.getByRole('heading', { name: plan.name }) });
      const lines = await card
        .locator('.checklist li')
        .evaluateAll((items) =>
          items.map((item) => ({ text: item.textContent, struck: item.classList.contains('excluded') })),
        );
      for (const [feature, name] of Object.entries(PLAN_FEATURE_NAMES)) {
        const included = plan.features[feature as keyof typeof plan.features];
        expect(lines, `${plan.name}: ${name}`).toContainEqual(
          included ? { text: name, struck: false } : { text: `Not included: ${name}`, struck: true },
        );
      }
    }
    await expectNoAxeViolations(page, '/pricing');
  });

  it('opens smart generation to a Starter seller, and the API refuses prompt enhancement with the way to upgrade, charging nothing', async () => {
    await signUp(page, 'Stella Starter', `starter-${Date.now()}@example.com`);
    await page.goto('/checkout?plan=starter');
    await page.getByRole('button', { name: 'Subscribe to Starter' }).click();
    await page.waitForURL('**/dashboard?subscription=success');
    await page.waitForFunction(() => document.querySelector('[data-testid="credit-total"]')?.textContent === '250');

    // Smart generation is every plan's: the dashboard's first path is open on Starter.
    await atEachWidth(page, 'dashboard-starter-smart', async () => {
      await page.goto('/dashboard');
      await page.locator('#image-input').setInputFiles(photo);
      await page.getByRole('button', { name: 'Continue with Smart Upload' }).waitFor();
    });
    expect(await page.getByRole('link', { name: 'Upgrade your plan' }).count()).toBe(0);

    const message = planRequiredMessage('promptEnhancement');
    const refused = await page.evaluate(async () => {
      const response = await fetch('/api/images/enhance-prompt', {
        method: 'POST',
        headers: { authorization: `Bearer ${localStorage.getItem('auth-token')}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'Beach sunset' }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    });
    expect(refused).toEqual({
      status: 403,
      body: {
        statusCode: 403,
        error: 'Forbidden',
        message,
        code: 'plan_required',
        feature: 'promptEnhancement',
        upgradeUrl: '/pricing',
      },
    });
    // Nothing was charged for the refusal.
    await page.goto('/dashboard');
    await page.waitForFunction(() => document.querySelector('[data-testid="credit-total"]')?.textContent === '250');
  });

  it('tells a Starter seller in the editor that prompt enhancement is part of Growth and Pro, while templates and custom prompts stay open', async () => {
    await page.setViewportSize(VIEWPORTS[1]);
    await page.goto('/dashboard');
    await page.locator('#image-input').setInputFiles(photo);
    await page.getByRole('button', { name: 'Continue with Manual Design' }).click();
    await page.waitForURL('**/editor');
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.getByRole('tab', { name: 'Custom Background' }).click();
      await page.getByRole('textbox', { name: 'Describe the background' }).fill('on a rustic wooden table');
      await page.getByRole('note').getByText(planRequiredMessage('promptEnhancement')).waitFor();
      await screenshot(page, 'editor-starter-enhance');
    }
    expect(await page.getByRole('button', { name: /Enhance Prompt/ }).isDisabled()).toBe(true);
    // The custom prompt itself is open to every plan: Generate turns on once the upload's product is found.
    await expect
      .poll(() => page.getByRole('button', { name: 'Generate', exact: true }).getAttribute('aria-disabled'), {
        timeout: 60_000,
      })
      .not.toBe('true');
  });
});
