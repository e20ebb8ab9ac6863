import { expect } from 'vitest';
import type { RenditionUrls } from '@prodshot/contracts';

/** A stored file and its renditions as the API names them, so a test can tell which one a screen fetched. */
export function stored(url: string): { url: string } & RenditionUrls {
  return { url, ...renditionsOf(url) };
}

export function renditionsOf(url: string): RenditionUrls {
  const base = url.replace(/\.[a-z]+$/, '');
  return { thumbnailUrl: `${base}.thumb.webp`, previewUrl: `${base}.preview.webp` };
}

/** The picture shows the renditions of `url` (the browser picks one by `sizes`), and never fetches the file itself. */
export function expectRenditionOf(img: HTMLElement, url: string): void {
  const { thumbnailUrl, previewUrl } = renditionsOf(url);
  expect(img.getAttribute('src')).toBe(thumbnailUrl);
  expect(img.getAttribute('srcset')).toBe(`${thumbnailUrl} 512w, ${previewUrl} 1280w`);
  expect(img.getAttribute('sizes')).toBeTruthy();
}
