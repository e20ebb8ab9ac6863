import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { byteSize, fileLabel, imageExtension, saveBlob } from './download.js';
import { catchDownloads } from '../test-support/downloads.js';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
const JPEG = [0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1];
const WEBP = [...'RIFF']
  .map((c) => c.charCodeAt(0))
  .concat(
    [0, 0, 0, 0],
    [...'WEBP'].map((c) => c.charCodeAt(0)),
  );
const blob = (bytes: number[], type: string) => new Blob([new Uint8Array(bytes)], { type });

describe('a downloaded file is named by what its bytes are', () => {
  let saved: string[];
  beforeEach(() => {
    saved = catchDownloads();
  });
  afterEach(() => vi.restoreAllMocks());

  it('reads PNG, JPEG and WebP magic numbers, even under a wrong declared type', async () => {
    expect(await imageExtension(blob(PNG, 'image/jpeg'))).toBe('png');
    expect(await imageExtension(blob(JPEG, 'image/png'))).toBe('jpg');
    expect(await imageExtension(blob(WEBP, 'application/octet-stream'))).toBe('webp');
    expect(await imageExtension(blob([1, 2, 3], 'image/webp'))).toBe('webp');
  });

  it('replaces an extension that does not match the bytes', async () => {
    expect(await saveBlob(blob(PNG, 'image/png'), 'product-shot-1.jpg')).toBe('product-shot-1.png');
    expect(await saveBlob(blob(JPEG, 'image/jpeg'), 'mug-amazon-1.jpg')).toBe('mug-amazon-1.jpg');
    expect(await saveBlob(blob(WEBP, 'image/webp'), 'mug-story-1')).toBe('mug-story-1.webp');
    expect(saved).toEqual(['product-shot-1.png', 'mug-amazon-1.jpg', 'mug-story-1.webp']);
  });
});

describe('a file offered as a choice', () => {
  it('names its kind and its size as phones count it', () => {
    expect(fileLabel({ contentType: 'image/png', bytes: 19_005_379 })).toBe('PNG · 18 MB');
    expect(fileLabel({ contentType: 'image/jpeg', bytes: 1_960_000 })).toBe('JPEG · 1.9 MB');
    expect(fileLabel({ contentType: 'image/webp', bytes: 300_000 })).toBe('WebP · 293 KB');
    expect(fileLabel({ contentType: 'image/png', bytes: null })).toBe('PNG');
    expect(byteSize(155_000_000)).toBe('148 MB');
    expect(byteSize(10)).toBe('1 KB');
  });
});
