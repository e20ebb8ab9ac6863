import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** WCAG 2.2 AA, every level up to it (target-size is wcag22aa): what issue 32 holds every page to. */
export const WCAG22_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] as const;

/**
 * axe-core's violations on the page as it stands. The script is evaluated over the DevTools
 * protocol, which the app's CSP (script-src 'self') does not govern, so the page's own policy stays on.
 */
export async function axeViolations(page: Page, options: { tags?: readonly string[] } = {}): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await axeSource);
  return page.evaluate(async (tags) => {
    type Run = (context: Document, options?: { runOnly: { type: 'tag'; values: string[] } }) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }>;
    const axe = (window as unknown as { axe: { run: Run } }).axe;
    const { violations } = await axe.run(document, tags ? { runOnly: { type: 'tag', values: tags } } : undefined);
    return violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((node) => node.target.join(' ')) }));
  }, options.tags ? [...options.tags] : null);
}
