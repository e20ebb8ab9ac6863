import { readFile } from 'node:fs/promises';
import type { Page, Response } from 'playwright-core';

export interface SavedDownload {
  name: string;
  bytes: Buffer;
}

/** What every download button of the app says when its file does not come. */
const FAILURE_TEXT = 'Download failed. Please try again.';

/**
 * Clicks and waits for the file the click saves. When none comes, the test fails with what went
 * wrong as the seller and the network saw it (the page's error line, every API answer of 400 or
 * more meanwhile) instead of a bare timeout on the download event.
 */
export async function savedDownload(page: Page, click: () => Promise<void>, timeout = 30_000): Promise<SavedDownload> {
  const failedCalls: string[] = [];
  const onResponse = (response: Response) => {
    if (response.status() >= 400 && new URL(response.url()).pathname.startsWith('/api/')) {
      failedCalls.push(`${response.request().method()} ${new URL(response.url()).pathname} → ${response.status()}`);
    }
  };
  page.on('response', onResponse);
  const failures = page.getByText(FAILURE_TEXT);
  const failuresBefore = await failures.count();
  try {
    // Neither outcome rejects: the one that loses the race must not surface as an unhandled rejection.
    const download = page.waitForEvent('download', { timeout }).then(
      (file) => ({ file }),
      (error: Error) => ({ message: error.message }),
    );
    const pageError = failures
      .nth(failuresBefore)
      .waitFor({ timeout })
      .then(
        () => ({ message: `the page said "${FAILURE_TEXT}"` }),
        () => new Promise<never>(() => undefined),
      );
    await click();
    const first = await Promise.race([download, pageError]);
    if (!('file' in first)) {
      throw new Error(
        `no download came after the click: ${first.message}; API answers ≥ 400 meanwhile: ${failedCalls.join(', ') || 'none'}`,
      );
    }
    return { name: first.file.suggestedFilename(), bytes: await readFile(await first.file.path()) };
  } finally {
    page.off('response', onResponse);
  }
}
