import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { median, round } from './stats.js';

/** Lighthouse's categories as 0..100, with the load metrics behind Performance. */
export interface LighthouseScores {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
}

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/** A session the web app keeps in its origin's localStorage, put there before Lighthouse loads the page. */
export type SignedIn = Record<string, string>;

/** Writes `storage` into the origin's localStorage through the launched Chromium, so the page opens signed in. */
async function signIn(port: number, url: string, storage: SignedIn): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const page = await browser.contexts()[0]!.newPage();
    await page.goto(new URL('/favicon.ico', url).href);
    // A string: this package is compiled without the DOM's types.
    await page.evaluate(Object.entries(storage).map(([key, value]) => `localStorage.setItem(${JSON.stringify(key)}, ${JSON.stringify(value)});`).join(''));
    await page.close();
  } finally {
    // Leaves Chromium running for Lighthouse: only this CDP connection closes.
    await browser.close();
  }
}

/**
 * BENCH_WEB_LIGHTHOUSE_REPORTS=<dir> keeps each run's whole report there (what the LCP element was,
 * which requests sat on the critical path): the scores alone do not say why a page is slow.
 */
async function keepReport(url: string, run: number, report: string | string[]): Promise<void> {
  const dir = process.env.BENCH_WEB_LIGHTHOUSE_REPORTS;
  if (!dir) return;
  const page = new URL(url).pathname.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home';
  await writeFile(path.join(dir, `${page}-${run + 1}.json`), Array.isArray(report) ? report[0]! : report);
}

/**
 * Lighthouse's default run (a mid-range phone on a slow 4G link, simulated) on one URL, `runs`
 * times, each figure the median: Performance moves by a few points from run to run on a shared
 * machine. Chromium is the one CHROME_PATH names (Debian's by default). With `signedIn`, each run
 * starts with that localStorage and Lighthouse keeps it (a signed-in page, not the sign-in redirect).
 */
export async function lighthouseScores(url: string, runs: number, signedIn?: SignedIn): Promise<LighthouseScores> {
  const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  const samples: LighthouseScores[] = [];
  let failed = 0;
  for (let n = 0; samples.length < runs; n += 1) {
    const chrome = await launch({ chromePath, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    try {
      if (signedIn) await signIn(chrome.port, url, signedIn);
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES, disableStorageReset: Boolean(signedIn) });
      if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
      await keepReport(url, n, result.report);
      const { categories, audits } = result.lhr;
      // A trace Chromium failed to record (NO_NAVSTART) scores nothing: run again rather than count a 0.
      if (categories.performance?.score == null) {
        failed += 1;
        if (failed > runs) throw new Error(`Lighthouse recorded no trace of ${url} ${failed} times`);
        continue;
      }
      const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
      const metric = (id: string) => audits[id]?.numericValue ?? Number.NaN;
      samples.push({
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        seo: score('seo'),
        lcpMs: metric('largest-contentful-paint'),
        fcpMs: metric('first-contentful-paint'),
        tbtMs: metric('total-blocking-time'),
        cls: metric('cumulative-layout-shift'),
      });
    } finally {
      chrome.kill();
    }
  }
  const mid = (pick: (s: LighthouseScores) => number, digits = 0) => round(median(samples.map(pick)), digits);
  return {
    performance: mid((s) => s.performance),
    accessibility: mid((s) => s.accessibility),
    bestPractices: mid((s) => s.bestPractices),
    seo: mid((s) => s.seo),
    lcpMs: mid((s) => s.lcpMs),
    fcpMs: mid((s) => s.fcpMs),
    tbtMs: mid((s) => s.tbtMs),
    cls: mid((s) => s.cls, 3),
  };
}
