import { vi } from 'vitest';

/**
 * Catches the downloads a test's clicks start (a link with `download`, clicked), by the name each
 * file is saved under, in order. The list fills as the page downloads.
 */
export function catchDownloads(): string[] {
  const names: string[] = [];
  Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return names;
}
