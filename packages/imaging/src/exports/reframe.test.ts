import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { EXPORT_PRESETS, type ExportPresetId } from '@prodshot/contracts';
import { complianceLines, OVERLAY_MAX_SHARE } from './compliance.js';
import { measure } from './measure.js';
import { renderExport } from './reframe.js';
import { scenePlate } from './scene-plate.js';

/** A cutout as the engine stores it: an opaque product on transparent pixels, of the given shape. */
function cutout(width: number, height: number, product: { w: number; h: number }): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect x="${(width - product.w) / 2}" y="${(height - product.h) / 2}" width="${product.w}" height="${product.h}" rx="12" fill="#1f5fd6"/>
    <rect x="${(width - product.w) / 2 + 10}" y="${(height - product.h) / 2 + 20}" width="${product.w / 3}" height="${product.h / 5}" fill="#f2c230"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function decoded(image: Buffer) {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, format: (await sharp(image).metadata()).format };
}

const tall = () => cutout(800, 1000, { w: 300, h: 900 });
const wide = () => cutout(1000, 800, { w: 900, h: 300 });
const shot = () =>
  sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#c9b8a0' } })
    .png()
    .toBuffer();
const scene = { template: 'marble', prompt: null, seed: 42 };

describe('exports re-frame from the cutout and the scene', () => {
  it('Amazon: 2000 px JPEG, border pure RGB 255, product filling ≥ 85% and clear of the edges', async () => {
    for (const source of [await tall(), await wide()]) {
      const out = await renderExport({
        preset: EXPORT_PRESETS.amazon,
        format: 'jpeg',
        cutout: source,
        scene,
        shot: await shot(),
      });
      const image = await decoded(out.image);
      expect(image).toMatchObject({ width: 2000, height: 2000, format: 'jpeg' });
      expect(out.mimeType).toBe('image/jpeg');
      const m = measure(image, null);
      expect(m.whiteBorder).toBe(1);
      expect(m.fill!).toBeGreaterThanOrEqual(0.85);
      expect(m.touchesEdge).toBe(false);
      expect(complianceLines(m, { preset: EXPORT_PRESETS.amazon }).every((line) => line.status === 'pass')).toBe(true);
    }
  });

  it.each<[ExportPresetId, number, number]>([
    ['instagram-story', 1080, 1920],
    ['instagram-post', 1080, 1350],
    ['etsy', 2400, 1800],
  ])(
    '%s: %i × %i in the output scene, a wide and a tall product never cut',
    async (id, width, height) => {
      const preset = EXPORT_PRESETS[id];
      const plate = await scenePlate(scene, width, height);
      for (const source of [await tall(), await wide()]) {
        const out = await renderExport({ preset, format: 'png', cutout: source, scene, shot: await shot() });
        const image = await decoded(out.image);
        expect([image.width, image.height, image.format]).toEqual([width, height, 'png']);
        const m = measure(image, plate);
        expect(m.productSource).toBe('reference');
        expect(m.touchesEdge).toBe(false);
        expect(m.product!.width * m.product!.height).toBeGreaterThan(width * height * 0.03);
        expect(complianceLines(m, { preset }).every((line) => line.status === 'pass')).toBe(true);
      }
    },
    60_000,
  );

  it('without a scene to render again (a hosted shot), the whole square is fitted into the frame, never cropped', async () => {
    const square = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#dddddd' } })
      .composite([
        { input: { create: { width: 1024, height: 40, channels: 3, background: '#aa0000' } }, top: 0, left: 0 },
        { input: { create: { width: 1024, height: 40, channels: 3, background: '#00aa00' } }, top: 984, left: 0 },
      ])
      .png()
      .toBuffer();
    const out = await renderExport({
      preset: EXPORT_PRESETS['instagram-story'],
      format: 'webp',
      cutout: await tall(),
      scene: null,
      shot: square,
    });
    const image = await decoded(out.image);
    expect([image.width, image.height, image.format]).toEqual([1080, 1920, 'webp']);
    // The square's top and bottom bands (its first and last rows) are both still in the frame.
    const at = (x: number, y: number) => Array.from(image.data.subarray((y * 1080 + x) * 4, (y * 1080 + x) * 4 + 3));
    const top = (1920 - 1080) / 2;
    expect(at(540, top + 10)[0]).toBeGreaterThan(150);
    expect(at(540, top + 1070)[1]).toBeGreaterThan(130);
  });

  it('Shopify is a 2048 px square; a transparent cutout is PNG or WebP with a clear border', async () => {
    const shopify = await renderExport({
      preset: EXPORT_PRESETS.shopify,
      format: 'webp',
      cutout: await wide(),
      scene,
      shot: await shot(),
    });
    expect([shopify.width, shopify.height, shopify.mimeType]).toEqual([2048, 2048, 'image/webp']);
    const transparent = await renderExport({
      preset: EXPORT_PRESETS.transparent,
      format: 'png',
      cutout: await tall(),
      scene,
      shot: await shot(),
    });
    const image = await decoded(transparent.image);
    expect(image.format).toBe('png');
    const m = measure(image, null);
    expect(m).toMatchObject({ productSource: 'alpha', transparentBorder: 1, touchesEdge: false });
  }, 60_000);

  it('text stamped on a scene export fails the overlay check against the scene we rendered; the same file as JPEG passes clean', async () => {
    const preset = EXPORT_PRESETS['instagram-post'];
    const plate = await scenePlate(scene, 1080, 1350);
    const clean = await renderExport({ preset, format: 'jpeg', cutout: await tall(), scene, shot: await shot() });
    const cleanPixels = await decoded(clean.image);
    expect(measure(cleanPixels, plate).overlayShare!).toBeLessThanOrEqual(OVERLAY_MAX_SHARE);
    const stamp = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="420" height="90"><text x="10" y="60" font-family="sans-serif" font-size="54" fill="#ffffff" stroke="#222" stroke-width="2">SALE -50%</text></svg>',
    );
    const stamped = await decoded(
      await sharp(clean.image)
        .composite([{ input: stamp, left: 40, top: 1220 }])
        .jpeg({ quality: 92 })
        .toBuffer(),
    );
    const m = measure(stamped, plate);
    expect(m.overlayShare!).toBeGreaterThan(OVERLAY_MAX_SHARE);
    expect(complianceLines(m, { preset }).find((line) => line.id === 'no-overlay')!.status).toBe('fail');
  }, 60_000);

  it('refuses a format the preset does not take (Amazon has no WebP, a cutout no JPEG)', async () => {
    await expect(
      renderExport({ preset: EXPORT_PRESETS.amazon, format: 'webp', cutout: await tall(), scene, shot: await shot() }),
    ).rejects.toThrow(/jpeg or png/);
    await expect(
      renderExport({
        preset: EXPORT_PRESETS.transparent,
        format: 'jpeg',
        cutout: await tall(),
        scene,
        shot: await shot(),
      }),
    ).rejects.toThrow(/png or webp/);
  });
});
