import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makeRenditions } from './make-renditions.js';

const sizes = { thumbnail: 512, preview: 1280 };

function canvas(width: number, height: number, channels: 3 | 4): Promise<Buffer> {
  const background = channels === 4 ? { r: 200, g: 16, b: 46, alpha: 0.5 } : '#c8102e';
  return sharp({ create: { width, height, channels, background } }).png().toBuffer();
}

describe('renditions', () => {
  it('shrinks the longest side to each size as WebP, keeping the aspect ratio', async () => {
    const made = await makeRenditions(await canvas(4096, 2048, 3), sizes);
    expect(await sharp(made.thumbnail).metadata()).toMatchObject({ format: 'webp', width: 512, height: 256 });
    expect(await sharp(made.preview).metadata()).toMatchObject({ format: 'webp', width: 1280, height: 640 });
  });

  it('never enlarges a small image', async () => {
    const made = await makeRenditions(await canvas(300, 900, 3), sizes);
    expect(await sharp(made.thumbnail).metadata()).toMatchObject({ width: 171, height: 512 });
    expect(await sharp(made.preview).metadata()).toMatchObject({ width: 300, height: 900 });
  });

  it("keeps a cutout's transparency", async () => {
    const made = await makeRenditions(await canvas(2000, 2000, 4), sizes);
    for (const rendition of [made.thumbnail, made.preview]) {
      expect((await sharp(rendition).metadata()).hasAlpha).toBe(true);
      const { channels } = await sharp(rendition).stats();
      expect(channels[3]!.mean).toBeGreaterThan(100);
      expect(channels[3]!.mean).toBeLessThan(155);
    }
  });

  it('is far lighter than the shot it stands for', async () => {
    const noisy = await sharp({
      create: {
        width: 2048,
        height: 2048,
        channels: 3,
        background: '#888',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .png()
      .toBuffer();
    const made = await makeRenditions(noisy, sizes);
    expect(made.thumbnail.length).toBeLessThan(noisy.length / 20);
    expect(made.preview.length).toBeLessThan(noisy.length / 3);
  });
});
