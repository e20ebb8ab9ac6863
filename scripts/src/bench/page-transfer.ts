import type { BrowserContext, Page } from 'playwright-core';

/** What one visit to a page moved over the network, as Chromium's DevTools protocol counts it (headers and compressed bodies). */
export interface Transfer {
  totalBytes: number;
  imageBytes: number;
  requests: number;
  /** Images answered from the browser's cache, with nothing sent. */
  imagesFromCache: number;
}

interface Tracked {
  type: string;
  fromCache: boolean;
}

/**
 * Opens `route` in a page of `context`, scrolls it to the bottom so that every lazy picture is
 * fetched, waits for the network to settle, and sums what came over the wire.
 */
export async function measureVisit(context: BrowserContext, route: string): Promise<{ page: Page; transfer: Transfer }> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const tracked = new Map<string, Tracked>();
  const transfer: Transfer = { totalBytes: 0, imageBytes: 0, requests: 0, imagesFromCache: 0 };
  cdp.on('Network.requestWillBeSent', (event) => tracked.set(event.requestId, { type: event.type ?? 'Other', fromCache: false }));
  cdp.on('Network.requestServedFromCache', (event) => {
    const request = tracked.get(event.requestId);
    if (request) request.fromCache = true;
  });
  cdp.on('Network.responseReceived', (event) => {
    const request = tracked.get(event.requestId);
    if (request && event.response.fromDiskCache) request.fromCache = true;
  });
  cdp.on('Network.loadingFinished', (event) => {
    const request = tracked.get(event.requestId);
    if (!request) return;
    transfer.requests += 1;
    const bytes = request.fromCache ? 0 : event.encodedDataLength;
    transfer.totalBytes += bytes;
    if (request.type === 'Image') {
      transfer.imageBytes += bytes;
      if (request.fromCache) transfer.imagesFromCache += 1;
    }
  });
  await page.goto(route);
  await page.locator('main h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  await scrollThrough(page);
  await page.waitForLoadState('networkidle');
  // Late answers still count: give the last responses a moment to report their sizes.
  await page.waitForTimeout(500);
  await cdp.detach();
  return { page, transfer };
}

/** Down the page a screen at a time, as a reader would, so that lazy images start loading. */
async function scrollThrough(page: Page): Promise<void> {
  // A string: this package is compiled without the DOM's types.
  await page.evaluate(`(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  })()`);
}
