import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeEachImageOnce } from './one-shot-decodes.js';

describe('decodeEachImageOnce', () => {
  const before = sharp.cache();
  afterAll(() => sharp.cache({ memory: before.memory.max, files: before.files.max, items: before.items.max }));

  it("turns off libvips' operation cache, which would keep recent uploads' pixels", () => {
    expect(sharp.cache().items.max).toBeGreaterThan(0);
    decodeEachImageOnce();
    expect(sharp.cache()).toMatchObject({ memory: { max: 0 }, files: { max: 0 }, items: { max: 0 } });
  });
});
