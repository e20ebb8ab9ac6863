import type { Page } from 'playwright-core';

/** One layout shift the page recorded (none within 500 ms of the seller's input), and what moved. */
export interface Shift {
  at: number;
  value: number;
  sources: string[];
}

interface Recorder {
  __shifts: Shift[];
  __paths: { path: string; at: number }[];
}

/**
 * Records, from before any page script runs, every layout shift (PerformanceObserver 'layout-shift')
 * and when the app's path changed in place (pushState/replaceState), so a test can measure one
 * screen of a single-page walk.
 */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const recorder = window as unknown as Recorder;
    recorder.__shifts = [];
    recorder.__paths = [{ path: location.pathname, at: 0 }];
    const describe = (node: Node | null | undefined): string => {
      if (!(node instanceof Element)) return node?.nodeName.toLowerCase() ?? '?';
      const classes =
        typeof node.className === 'string' && node.className ? `.${node.className.trim().split(/\s+/).join('.')}` : '';
      return `${node.nodeName.toLowerCase()}${node.id ? `#${node.id}` : ''}${classes}`;
    };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        startTime: number;
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node | null }[];
      }[]) {
        if (entry.hadRecentInput) continue;
        recorder.__shifts.push({
          at: entry.startTime,
          value: entry.value,
          sources: (entry.sources ?? []).map((source) => describe(source.node)),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method].bind(history);
      history[method] = (...args: Parameters<History['pushState']>) => {
        original(...args);
        recorder.__paths.push({ path: location.pathname, at: performance.now() });
      };
    }
  });
}

/** The shifts recorded since the page's path first began with `pathPrefix` (in this document). */
export async function shiftsSince(page: Page, pathPrefix: string): Promise<Shift[]> {
  return page.evaluate((prefix) => {
    const recorder = window as unknown as Recorder;
    const since = recorder.__paths.find((entry) => entry.path.startsWith(prefix))?.at;
    if (since === undefined) throw new Error(`the page never reached ${prefix}`);
    return recorder.__shifts.filter((shift) => shift.at >= since);
  }, pathPrefix);
}

/** CLS as Chromium reports it: the largest session window (shifts under 1 s apart, at most 5 s long). */
export function cumulativeLayoutShift(shifts: Shift[]): number {
  let largest = 0;
  let current = 0;
  let windowStart = -Infinity;
  let previous = -Infinity;
  for (const shift of [...shifts].sort((a, b) => a.at - b.at)) {
    if (shift.at - previous > 1000 || shift.at - windowStart > 5000) {
      current = 0;
      windowStart = shift.at;
    }
    current += shift.value;
    previous = shift.at;
    largest = Math.max(largest, current);
  }
  return largest;
}
