import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { TEMPLATE_HANDLES } from '@prodshot/contracts';
import { corpusFiles } from '@prodshot/fixtures';
import { ImagingError } from '../errors.js';
import { productPhoto } from '../test-support.js';
import { makeRenditions } from '../renditions/make-renditions.js';
import { LocalImageModel } from './local-model.js';
import { colouredTransparentPixels } from './cutout/cutout.test-support.js';

const model = new LocalImageModel();

describe('LocalImageModel.generate', () => {
  it('is deterministic for a seed and varies with it', async () => {
    const photo = await productPhoto();
    const a = await model.generate({ image: photo, template: 'marble', seed: 42 });
    const b = await model.generate({ image: photo, template: 'marble', seed: 42 });
    const c = await model.generate({ image: photo, template: 'marble', seed: 43 });
    expect(a.image.equals(b.image)).toBe(true);
    expect(a.image.equals(c.image)).toBe(false);
  });

  it('makes the same picture whether its steps overlap or run in turn', async () => {
    const photo = await productPhoto();
    const inTurn = new LocalImageModel({ overlapSteps: false });
    for (const template of ['marble', 'lifestyle'] as const) {
      const overlapped = await model.generate({ image: photo, template, seed: 7 });
      const sequential = await inTurn.generate({ image: photo, template, seed: 7 });
      expect(sequential.image.equals(overlapped.image)).toBe(true);
    }
  });

  it('makes every template at 1024 px, PNG by default and JPEG on request', async () => {
    const photo = await productPhoto(300);
    for (const template of TEMPLATE_HANDLES) {
      const shot = await model.generate({ image: photo, template, format: template === 'studio' ? 'jpeg' : 'png' });
      const meta = await sharp(shot.image).metadata();
      expect([meta.width, meta.height, meta.format]).toEqual([1024, 1024, template === 'studio' ? 'jpeg' : 'png']);
      expect(shot.background).toMatchObject({ source: 'template', template, scene: template });
    }
  });

  it('keeps product pixels and reports where they went', async () => {
    const photo = await productPhoto(400, '#ffffff');
    const shot = await model.generate({ image: photo, template: 'darkwood', seed: 1 });
    const { box } = shot.placement!;
    const raw = await sharp(shot.image).raw().toBuffer();
    // The centre of the red box lands at the centre of the reported box, red as in the photo.
    const cx = Math.round(box.x + box.width / 2),
      cy = Math.round(box.y + box.height * 0.25);
    const p = (cy * 1024 + cx) * 3;
    expect(raw[p]).toBeGreaterThan(180);
    expect(raw[p + 1]).toBeLessThan(40);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(1024);
  });

  it('darkens the floor under the product (contact shadow)', async () => {
    const photo = await productPhoto(400, '#ffffff');
    const shot = await model.generate({ image: photo, template: 'studio', seed: 1 });
    const bounds = shot.placement!.box;
    const raw = await sharp(shot.image).greyscale().raw().toBuffer();
    const under = raw[Math.round(bounds.y + bounds.height * 0.92) * 1024 + Math.round(bounds.x + bounds.width / 2)]!;
    const aside = raw[Math.round(bounds.y + bounds.height * 0.92) * 1024 + 40]!;
    expect(under).toBeLessThan(aside - 20);
  });

  it('renders HD and ultra HD sizes', async () => {
    const photo = await productPhoto(300);
    const shot = await model.generate({ image: photo, prompt: 'Beach sunset', size: 2048, format: 'jpeg' });
    expect((await sharp(shot.image).metadata()).width).toBe(2048);
    expect(shot.background).toMatchObject({ source: 'prompt', scene: 'beach' });
  });

  it('makes the renditions asked for from the shot it renders: opaque WebP copies, never enlarged', async () => {
    const photo = await productPhoto(300);
    const shot = await model.generate({
      image: photo,
      template: 'marble',
      size: 2048,
      renditions: { thumbnail: 512, preview: 1280 },
    });
    const [thumbnail, preview] = await Promise.all([
      sharp(shot.renditions!.thumbnail).metadata(),
      sharp(shot.renditions!.preview).metadata(),
    ]);
    expect([thumbnail.format, thumbnail.width, thumbnail.hasAlpha]).toEqual(['webp', 512, false]);
    expect([preview.format, preview.width]).toEqual(['webp', 1280]);
    // The copies made from the file would be the same: the engine only skipped decoding it.
    const fromFile = await makeRenditions(shot.image, { thumbnail: 512 });
    const [made, expected] = await Promise.all(
      [shot.renditions!.thumbnail, fromFile.thumbnail].map((image) => sharp(image).removeAlpha().raw().toBuffer()),
    );
    let difference = 0;
    for (let i = 0; i < made!.length; i++) difference += Math.abs(made![i]! - expected![i]!);
    expect(difference / made!.length).toBeLessThan(1);
    const plain = await model.generate({ image: photo, template: 'marble', size: 1024 });
    expect(plain.renditions).toBeUndefined();
    const small = await model.generate({ image: photo, template: 'marble', size: 1024, renditions: { preview: 1280 } });
    expect((await sharp(small.renditions!.preview).metadata()).width).toBe(1024);
  });

  it('rejects bad requests with typed errors', async () => {
    const photo = await productPhoto(200);
    const attempts = [
      model.generate({ image: photo, size: 999 as 1024 }),
      model.generate({ image: photo, prompt: 'x'.repeat(1001) }),
      model.generate({ image: photo, template: 'space' as 'studio' }),
      model.upscale(photo, 9),
      model.enhancePrompt('   '),
    ];
    for (const attempt of attempts) await expect(attempt).rejects.toMatchObject({ code: 'invalid_request' });
    const blank = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    await expect(model.generate({ image: blank })).rejects.toMatchObject({ code: 'empty_image' });
  });
});

describe('LocalImageModel cutout, analysis and styles', () => {
  it('cuts a product out of a plain backdrop', async () => {
    const cutout = await model.removeBackground(await productPhoto(400));
    const { data, info } = await sharp(cutout).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    const alphaAt = (x: number, y: number) => data[(y * 400 + x) * 4 + 3]!;
    expect(alphaAt(200, 200)).toBe(255);
    expect(alphaAt(200, 300)).toBe(255);
    expect(alphaAt(20, 20)).toBe(0);
    expect(alphaAt(100, 200)).toBe(0);
    // Nothing of the backdrop stays hidden under the transparent pixels.
    expect(colouredTransparentPixels(data)).toBe(0);
  });

  it('analyses the subject and says unknown rather than guess', async () => {
    const analysis = await model.analyse(await productPhoto(400));
    expect(analysis.kind).toBe('unknown');
    expect(analysis.supported).toBe(true);
    expect(analysis.subject?.box.width).toBeGreaterThan(140);
    expect(analysis.palette[0]?.hex).toMatch(/^#[c-f][0-9a-f]/);
  });

  it('takes a supported kind from the seller title as a hint, and lets no title refuse a photo it reads no kind from', async () => {
    const photo = await productPhoto(300);
    expect(await model.readKind()).toEqual({ kind: 'unknown', confidence: 0 });
    for (const title of ['Enamel camping mug', 'Apple drink']) {
      expect(await model.analyse(photo, { title })).toMatchObject({
        kind: 'unknown',
        supported: true,
        unsupported: null,
      });
    }
    const shoe = await model.analyse(photo, { title: 'Canvas sneakers' });
    const styles = await model.recommendStyles(shoe, { title: 'Canvas sneakers' });
    expect(styles.productInfo).toMatchObject({ productTitle: 'Canvas sneakers', productType: 'footwear' });
    expect(styles.styles.length).toBeGreaterThanOrEqual(3);
    expect(styles.styles.length).toBeLessThanOrEqual(6);
  });

  it('enhances a prompt into a longer one that keeps the seller words', async () => {
    const enhanced = await model.enhancePrompt('Wooden table');
    expect(enhanced.startsWith('Wooden table, ')).toBe(true);
    expect(enhanced.length).toBeGreaterThan(60);
    expect(enhanced.length).toBeLessThanOrEqual(1000);
  });

  it('upscales by a factor', async () => {
    const out = await model.upscale(await productPhoto(200), 2);
    expect((await sharp(out).metadata()).width).toBe(400);
  });
});

describe('edge-case and hostile corpus: a shot or a typed error, never a crash', () => {
  const files = [...corpusFiles('edge-cases'), ...corpusFiles('hostile')];
  it(`every file of corpus/edge-cases and corpus/hostile (${files.length})`, async () => {
    const outcomes: Record<string, string> = {};
    for (const file of files) {
      try {
        const shot = await model.generate({ image: await readFile(file), template: 'studio' });
        const meta = await sharp(shot.image).metadata();
        expect([meta.width, meta.height]).toEqual([1024, 1024]);
        outcomes[basename(file)] = 'shot';
      } catch (error) {
        expect(error, basename(file)).toBeInstanceOf(ImagingError);
        expect((error as ImagingError).message.length).toBeGreaterThan(20);
        outcomes[basename(file)] = (error as ImagingError).code;
      }
    }
    expect(outcomes).toMatchObject({
      'lottapixel.jpg': 'image_too_large',
      'giant-image.jpg': 'image_too_large',
      '65536-uint32-limit.png': 'image_too_large',
      'SVG_XSS1.svg': 'unsupported_format',
      'truncated.png': 'corrupt_image',
      'full-transparent.png': 'empty_image',
      'Landscape_6.jpg': expect.any(String),
    });
  });
});
