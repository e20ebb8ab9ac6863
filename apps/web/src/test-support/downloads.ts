import { afterEach, beforeEach, vi } from 'vitest';

/**
 * Catches the downloads a test's clicks start (a link with `download`, clicked), by the name each
 * file is saved under, in order. The list fills as the page downloads.
 */
export function catchDownloads(): string[] {
  return catchInto([]);
}

/**
 * `catchDownloads` around every test of the file: one list, emptied before each test, and every
 * global and spy the test set up undone after it.
 */
export function catchDownloadsInEachTest(): string[] {
  const names: string[] = [];
  beforeEach(() => {
    names.length = 0;
    catchInto(names);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  return names;
}

function catchInto(names: string[]): string[] {
  Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return names;
}
