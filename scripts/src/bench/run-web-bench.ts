import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { AUTH_TOKEN_STORAGE_KEY } from '@prodshot/contracts';
import { corpusFile } from '@prodshot/fixtures';
import { repoRoot, startBenchStack } from './bench-stack.js';
import { lighthouseScores, type LighthouseScores } from './lighthouse-run.js';
import { measureVisit, type Transfer } from './page-transfer.js';
import { upsertSection } from './report.js';
import { generateShots, paidSeller, uploadPhotos } from './web-seller.js';

/**
 * `npm run bench:web`: what the web app costs a seller on a phone. A Growth seller with 24 ultra HD
 * shots and 7 uploads, made through the real API on the embedded stack, opens /dashboard and
 * /all-generations in Chromium (bytes over the wire, first visit and a repeat within the signed-URL
 * window); then Lighthouse's mobile run on the public pages and, signed in, on /dashboard.
 */

const PRODUCT = corpusFile('products', 'saleor-blue-plimsolls-1.png');
const UPLOADS = 7;
const GENERATIONS = 24;
const LIGHTHOUSE_RUNS = 3;
const PUBLIC_PAGES = ['/', '/pricing', '/sign-in'];
const SIGNED_IN_PAGES = ['/dashboard', '/all-generations'];
/** The public pages, and the dashboard as the signed-in seller opens it. */
const LIGHTHOUSE_PAGES = [...PUBLIC_PAGES, '/dashboard'];
/**
 * BENCH_WEB_LIGHTHOUSE=/dashboard (a comma list): Lighthouse on those pages alone, the same runs on the
 * same seller, printed and kept out of bench/out and RESULTS.md (a partial section would replace the whole).
 */
const lighthouseOnly = process.env.BENCH_WEB_LIGHTHOUSE?.split(',').filter(Boolean);
/** A phone of 390 CSS px at 3 device pixels each: the densest common screen, so the largest renditions a phone picks. */
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const OUT = path.join(repoRoot, 'bench', 'out');

const TARGETS = {
  '/dashboard': 3_000_000,
  '/all-generations': 6_000_000,
  repeatImageBytes: 200_000,
  performance: 95,
  accessibility: 100,
  bestPractices: 100,
  seo: 98,
};

interface WebBenchResults {
  measuredAt: string;
  machine: { cpus: number; cpuModel: string; node: string };
  seller: { uploads: number; generations: number; plan: 'growth' };
  phone: typeof PHONE;
  transfer: Record<string, { first: Transfer; repeat: Transfer }>;
  lighthouse: Record<string, LighthouseScores>;
  lighthouseRuns: number;
}

function log(message: string): void {
  console.log(`[bench:web] ${message}`);
}

async function measureTransfers(browser: Browser, baseUrl: string, token: string): Promise<WebBenchResults['transfer']> {
  const transfer: WebBenchResults['transfer'] = {};
  for (const route of SIGNED_IN_PAGES) {
    // A fresh profile per page: the first visit starts with an empty cache.
    const context = await browser.newContext({ baseURL: baseUrl, ...PHONE });
    // Signed in as the web app keeps a session (strings: this package is compiled without the DOM's types).
    await context.addInitScript({ content: `localStorage.setItem(${JSON.stringify(AUTH_TOKEN_STORAGE_KEY)}, ${JSON.stringify(token)})` });
    const first = await measureVisit(context, route);
    if (route === '/dashboard') {
      await first.page.evaluate('window.scrollTo(0, 0)');
      await first.page.screenshot({ path: path.join(OUT, 'screenshots', 'dashboard-390.png'), fullPage: true });
    }
    const repeat = await measureVisit(context, route);
    transfer[route] = { first: first.transfer, repeat: repeat.transfer };
    log(`${route}: ${first.transfer.totalBytes} bytes first (${first.transfer.imageBytes} of images), ${repeat.transfer.imageBytes} bytes of images on a repeat visit`);
    await context.close();
  }
  return transfer;
}

const kb = (bytes: number) => `${Math.round(bytes / 1000)} kB`;
const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

function markdown(results: WebBenchResults): string {
  const rows: string[] = [];
  for (const route of SIGNED_IN_PAGES) {
    const { first, repeat } = results.transfer[route]!;
    const target = TARGETS[route as '/dashboard' | '/all-generations'];
    rows.push(`| ${route} transfer, first visit | ≤ ${kb(target)} | ${kb(first.totalBytes)} (${kb(first.imageBytes)} of images, ${first.requests} requests) | ${verdict(first.totalBytes <= target)} |`);
    rows.push(
      `| ${route} images, repeat visit | ≤ ${kb(TARGETS.repeatImageBytes)} | ${kb(repeat.imageBytes)} (${repeat.imagesFromCache} images from the cache) | ${verdict(repeat.imageBytes <= TARGETS.repeatImageBytes)} |`,
    );
  }
  for (const route of LIGHTHOUSE_PAGES) {
    const s = results.lighthouse[route]!;
    rows.push(`| Lighthouse mobile ${route}: Performance | ≥ ${TARGETS.performance} | ${s.performance} (LCP ${s.lcpMs} ms, FCP ${s.fcpMs} ms, TBT ${s.tbtMs} ms, CLS ${s.cls}) | ${verdict(s.performance >= TARGETS.performance)} |`);
    rows.push(
      `| Lighthouse mobile ${route}: Accessibility / Best Practices / SEO | ${TARGETS.accessibility} / ${TARGETS.bestPractices} / ≥ ${TARGETS.seo} | ${s.accessibility} / ${s.bestPractices} / ${s.seo} | ${verdict(s.accessibility >= TARGETS.accessibility && s.bestPractices >= TARGETS.bestPractices && s.seo >= TARGETS.seo)} |`,
    );
  }
  return [
    '# Web',
    '',
    '## Web (npm run bench:web)',
    '',
    `Measured ${results.measuredAt} on ${results.machine.cpus} × ${results.machine.cpuModel}, Node ${results.machine.node}, Debian's Chromium.`,
    `A Growth seller with ${results.seller.generations} ultra HD (4096 px) shots and ${results.seller.uploads} uploads, made through the API of the built stack;`,
    `the pages opened on a phone of 390 CSS px at 3× density, scrolled to the bottom so every lazy picture loads. Bytes are what crossed the`,
    'wire (headers and compressed bodies, DevTools protocol); a repeat visit is a second visit in the same browser within the signed-URL window.',
    `Lighthouse ${LIGHTHOUSE_RUNS} times per page (default mobile run: simulated slow 4G and a 4× slower CPU), medians; the machine is shared, so Performance moves by a few points between runs.`,
    'Figures in bench/out/web.json; the dashboard as measured in bench/out/screenshots/dashboard-390.png.',
    '',
    '| figure | target | measured | |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

async function lighthouseAll(baseUrl: string, token: string, routes: string[]): Promise<WebBenchResults['lighthouse']> {
  const lighthouse: WebBenchResults['lighthouse'] = {};
  for (const route of routes) {
    log(`Lighthouse on ${route}`);
    const signedIn = SIGNED_IN_PAGES.includes(route) ? { [AUTH_TOKEN_STORAGE_KEY]: token } : undefined;
    lighthouse[route] = await lighthouseScores(`${baseUrl}${route}`, LIGHTHOUSE_RUNS, signedIn);
    log(`${route}: ${JSON.stringify(lighthouse[route])}`);
  }
  return lighthouse;
}

async function main(): Promise<void> {
  await mkdir(path.join(OUT, 'screenshots'), { recursive: true });
  log('starting the stack');
  const stack = await startBenchStack();
  try {
    await stack.startWorkers(1, 2);
    const seller = await paidSeller(stack.baseUrl, 'Bench Seller');
    const imageIds = await uploadPhotos(stack.baseUrl, seller, PRODUCT, UPLOADS);
    log(`making ${GENERATIONS} ultra HD shots`);
    const generations = await generateShots(stack.baseUrl, seller, imageIds[0]!, GENERATIONS);
    if (lighthouseOnly) {
      await lighthouseAll(stack.baseUrl, seller.token, lighthouseOnly);
      return;
    }

    const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    let transfer: WebBenchResults['transfer'];
    try {
      transfer = await measureTransfers(browser, stack.baseUrl, seller.token);
    } finally {
      await browser.close();
    }

    const lighthouse = await lighthouseAll(stack.baseUrl, seller.token, LIGHTHOUSE_PAGES);

    const results: WebBenchResults = {
      measuredAt: new Date().toISOString().slice(0, 10),
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown', node: process.version },
      seller: { uploads: UPLOADS, generations, plan: 'growth' },
      phone: PHONE,
      transfer,
      lighthouse,
      lighthouseRuns: LIGHTHOUSE_RUNS,
    };
    await writeFile(path.join(OUT, 'web.json'), `${JSON.stringify(results, null, 2)}\n`);
    await upsertSection('# Web', markdown(results));
    console.log(markdown(results));
  } finally {
    await stack.stop();
  }
}

await main();
