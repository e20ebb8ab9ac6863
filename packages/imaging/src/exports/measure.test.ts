import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { EXPORT_PRESETS } from '@prodshot/contracts';
import { complianceLines, complianceNote } from './compliance.js';
import { measure, type MeasuredImage } from './measure.js';

/** An RGBA canvas of one colour with rectangles painted on it. */
function canvas(
  width: number,
  height: number,
  background: [number, number, number, number],
  rects: { x: number; y: number; w: number; h: number; rgba: number[] }[] = [],
): MeasuredImage {
  const data = Buffer.alloc(width * height * 4);
  for (let p = 0; p < width * height; p++) data.set(background, p * 4);
  for (const r of rects)
    for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) data.set(r.rgba, (y * width + x) * 4);
  return { data, width, height };
}

const WHITE: [number, number, number, number] = [255, 255, 255, 255];
const product = (x: number, y: number, w: number, h: number) => ({ x, y, w, h, rgba: [200, 20, 40, 255] });
const amazon = EXPORT_PRESETS.amazon;
const status = (image: MeasuredImage, reference: Buffer | null = null, preset = amazon) =>
  Object.fromEntries(complianceLines(measure(image, reference), { preset }).map((line) => [line.id, line.status]));

/** Text-like strokes: thin dark bars, as letters of a watermark would be. */
const strokes = (x0: number, y0: number) =>
  Array.from({ length: 6 }, (_, i) => ({ x: x0 + i * 12, y: y0, w: 3, h: 30, rgba: [60, 60, 60, 255] }));

describe('compliance measurements on constructed images', () => {
  it('a product filling 90% of a 2000 px pure white square passes every Amazon line', () => {
    const image = canvas(2000, 2000, WHITE, [product(100, 100, 1800, 1600)]);
    const m = measure(image, null);
    expect(m.whiteBorder).toBe(1);
    expect(m.fill).toBeCloseTo(0.9, 3);
    expect(m.product).toEqual({ x: 100, y: 100, width: 1800, height: 1600 });
    expect(status(image)).toEqual({
      background: 'pass',
      fill: 'pass',
      size: 'pass',
      'not-cut': 'pass',
      'no-overlay': 'pass',
      'no-tinted-band': 'pass',
    });
  });

  it('fails a tinted band under the product on white (a source shadow that came along) and passes a neutral grey one', () => {
    // A red product standing on a band as wide as it: the green-grey of a floor's shadow, or our own neutral grey.
    const withBand = (rgba: number[]) =>
      canvas(2000, 2000, WHITE, [product(100, 100, 1800, 1600), { x: 60, y: 1700, w: 1880, h: 80, rgba }]);
    const tinted = complianceLines(measure(withBand([96, 124, 88, 255]), null), { preset: amazon }).find(
      (line) => line.id === 'no-tinted-band',
    )!;
    expect(tinted).toMatchObject({
      status: 'fail',
      label: 'A tinted shadow is under the product',
      measured: "a tinted band spans 100% of the product's width at its foot",
      fix: null,
    });
    expect(status(withBand([150, 150, 150, 255]))['no-tinted-band']).toBe('pass');
  });

  it('background purity fails when the border is off-white by one level, and the fix is the Amazon export', () => {
    const image = canvas(2000, 2000, [254, 255, 255, 255], [product(100, 100, 1800, 1800)]);
    const lines = complianceLines(measure(image, null), { preset: amazon });
    const background = lines.find((line) => line.id === 'background')!;
    expect(background).toMatchObject({
      status: 'fail',
      label: 'Background is not pure white',
      measured: '0% of the border is #FFFFFF',
      target: '100% of the border should be #FFFFFF',
      fix: { preset: 'amazon', label: 'Make the background white' },
    });
  });

  it('fill fails for a small product, with the measured share', () => {
    const image = canvas(2000, 2000, WHITE, [product(700, 700, 600, 600)]);
    expect(measure(image, null).fill).toBeCloseTo(0.3, 3);
    expect(status(image).fill).toBe('fail');
  });

  it('size fails below 1600 px on the longest side', () => {
    expect(status(canvas(1024, 1024, WHITE, [product(40, 40, 944, 944)])).size).toBe('fail');
  });

  it('aspect fails for a square measured against a 4:5 preset and passes at 4:5', () => {
    const post = EXPORT_PRESETS['instagram-post'];
    expect(status(canvas(1080, 1080, WHITE, [product(300, 300, 400, 400)]), null, post).aspect).toBe('fail');
    expect(status(canvas(1080, 1350, WHITE, [product(300, 300, 400, 400)]), null, post).aspect).toBe('pass');
  });

  it('a product touching an edge is cut by the frame', () => {
    const image = canvas(2000, 2000, WHITE, [product(100, 300, 1900, 1400)]);
    expect(measure(image, null).touchesEdge).toBe(true);
    expect(status(image)['not-cut']).toBe('fail');
  });

  it('text-like strokes away from the product fail the overlay line; the product alone does not', () => {
    const clean = canvas(1200, 1200, WHITE, [product(300, 300, 500, 500)]);
    const marked = canvas(1200, 1200, WHITE, [product(300, 300, 500, 500), ...strokes(950, 1100)]);
    expect(status(clean, null)['no-overlay']).toBe('pass');
    expect(measure(marked, null).overlayShare).toBeGreaterThan(0.0001);
    expect(status(marked, null)['no-overlay']).toBe('fail');
  });

  it('against a rendered scene, the product is what differs from it and a mark on the scene fails', () => {
    const scene = canvas(600, 600, [0, 0, 0, 255]);
    for (let p = 0; p < 600 * 600; p++) scene.data.set([120 + ((p * 7) % 40), 90, 60 + (p % 600) / 10, 255], p * 4);
    const reference = Buffer.alloc(600 * 600 * 3);
    for (let p = 0; p < 600 * 600; p++) reference.set(scene.data.subarray(p * 4, p * 4 + 3), p * 3);
    const shot = { ...scene, data: Buffer.from(scene.data) };
    for (let y = 200; y < 400; y++)
      for (let x = 250; x < 350; x++) shot.data.set([240, 240, 250, 255], (y * 600 + x) * 4);
    const m = measure(shot, reference);
    expect(m.productSource).toBe('reference');
    expect(m.product).toEqual({ x: 250, y: 200, width: 100, height: 200 });
    expect(m.overlayShare).toBe(0);
    const marked = { ...shot, data: Buffer.from(shot.data) };
    for (const s of strokes(20, 20))
      for (let y = s.y; y < s.y + s.h; y++)
        for (let x = s.x; x < s.x + s.w; x++) marked.data.set([250, 250, 250, 255], (y * 600 + x) * 4);
    expect(measure(marked, reference).overlayShare).toBeGreaterThan(0.0001);
  });

  it('a busy background with nothing to compare with leaves fill, cut and overlay unmeasured, never passed', () => {
    const busy = canvas(400, 400, WHITE);
    for (let p = 0; p < 400 * 400; p++) busy.data.set([(p * 37) % 256, (p * 91) % 256, (p * 13) % 256, 255], p * 4);
    const lines = complianceLines(measure(busy, null), { preset: amazon });
    expect(lines.filter((line) => line.status === 'unmeasured').map((line) => line.id)).toEqual([
      'fill',
      'not-cut',
      'no-overlay',
      'no-tinted-band',
    ]);
  });

  it('an export measured for its own preset offers no fix; measured for another it offers that export', () => {
    const small = canvas(1024, 1024, WHITE, [product(400, 400, 200, 200)]);
    const own = complianceLines(measure(small, null), { preset: amazon, exportedFor: 'amazon' });
    expect(own.every((line) => line.fix === null)).toBe(true);
    expect(complianceLines(measure(small, null), { preset: amazon }).find((line) => line.id === 'fill')!.fix).toEqual({
      preset: 'amazon',
      label: 'Enlarge the product',
    });
  });

  it('a transparent cutout is told apart by its alpha', async () => {
    const image = canvas(300, 300, [0, 0, 0, 0], [product(30, 30, 240, 240)]);
    const m = measure(image, null);
    expect(m).toMatchObject({ productSource: 'alpha', transparentBorder: 1, touchesEdge: false });
    expect(status(image, null, EXPORT_PRESETS.transparent)).toEqual({
      background: 'pass',
      'not-cut': 'pass',
      'no-overlay': 'pass',
    });
    // Same pixels through a PNG round trip measure the same.
    const png = await sharp(image.data, { raw: { width: 300, height: 300, channels: 4 } })
      .png()
      .toBuffer();
    const back = await sharp(png).ensureAlpha().raw().toBuffer();
    expect(measure({ data: back, width: 300, height: 300 }, null).product).toEqual(m.product);
  });
});

describe('the report in plain words', () => {
  it('gives every failing line its own fix, named for what it repairs, so no two buttons read the same', () => {
    // Off-white, small in the frame, cut by the right edge and only 1024 px: four failing lines.
    const image = canvas(1024, 1024, [250, 250, 250, 255], [product(700, 400, 324, 200)]);
    const failing = complianceLines(measure(image, null), { preset: amazon }).filter((line) => line.status === 'fail');
    expect(failing.map((line) => [line.id, line.fix?.label])).toEqual([
      ['background', 'Make the background white'],
      ['fill', 'Enlarge the product'],
      ['size', 'Enlarge to 1600 px'],
      ['not-cut', 'Add space around the product'],
    ]);
    expect(failing.map((line) => line.label)).toEqual([
      'Background is not pure white',
      'Product is too small in the frame',
      'Image is too small',
      'The product is cut off at an edge',
    ]);
    expect(failing.find((line) => line.id === 'fill')).toMatchObject({
      measured: 'the product fills 32%',
      target: 'the product should fill at least 85% of the frame',
    });
  });

  it('notes that a shot set in a scene is for secondary images, and says nothing of a white or transparent one', () => {
    const scene = canvas(600, 600, [0, 0, 0, 255]);
    for (let p = 0; p < 600 * 600; p++) scene.data.set([(p * 37) % 256, (p * 91) % 256, (p * 13) % 256, 255], p * 4);
    expect(complianceNote(measure(scene, null), amazon)).toMatch(
      /^Lifestyle shots like this one are for secondary images: the Amazon main image shows the product alone on pure white\./,
    );
    expect(complianceNote(measure(scene, null), EXPORT_PRESETS.etsy)).toBeNull();
    expect(
      complianceNote(measure(canvas(2000, 2000, WHITE, [product(100, 100, 1800, 1800)]), null), amazon),
    ).toBeNull();
    expect(
      complianceNote(measure(canvas(300, 300, [0, 0, 0, 0], [product(30, 30, 240, 240)]), null), amazon),
    ).toBeNull();
  });
});
