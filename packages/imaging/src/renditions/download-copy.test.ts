import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DOWNLOAD_COPY_MAX_BYTES, makeDownloadCopy } from './download-copy.js';

/** Grain at every pixel: far harder to compress than any studio shot. */
const noise = { type: 'gaussian', mean: 128, sigma: 20 } as const;

describe('download copies', () => {
  it('makes a grainy 4096 px shot a full-size JPEG within 4 MB, where its PNG is many times that', async () => {
    const png = await sharp({ create: { width: 4096, height: 4096, channels: 3, background: '#888', noise } })
      .png()
      .toBuffer();
    const copy = await makeDownloadCopy(png);
    expect(copy.contentType).toBe('image/jpeg');
    expect(await sharp(copy.data).metadata()).toMatchObject({ format: 'jpeg', width: 4096, height: 4096 });
    expect(copy.data.length).toBeLessThanOrEqual(DOWNLOAD_COPY_MAX_BYTES);
    expect(png.length).toBeGreaterThan(4 * DOWNLOAD_COPY_MAX_BYTES);
  });

  it('keeps a light shot at the best quality, its colour at full resolution', async () => {
    const png = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#c8102e' } })
      .png()
      .toBuffer();
    const copy = await makeDownloadCopy(png);
    expect(await sharp(copy.data).metadata()).toMatchObject({ format: 'jpeg', chromaSubsampling: '4:4:4' });
  });

  it("keeps a cutout's transparency as WebP, and makes a PNG whose alpha is all opaque a JPEG", async () => {
    const cutout = await sharp({
      create: { width: 600, height: 400, channels: 4, background: { r: 200, g: 16, b: 46, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const copy = await makeDownloadCopy(cutout);
    expect(copy.contentType).toBe('image/webp');
    expect(await sharp(copy.data).metadata()).toMatchObject({
      format: 'webp',
      width: 600,
      height: 400,
      hasAlpha: true,
    });
    const opaque = await sharp({
      create: { width: 600, height: 400, channels: 4, background: { r: 200, g: 16, b: 46, alpha: 1 } },
    })
      .png()
      .toBuffer();
    expect((await makeDownloadCopy(opaque)).contentType).toBe('image/jpeg');
  });
});
