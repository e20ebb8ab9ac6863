import sharp from 'sharp';
import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ImagingError } from '../errors.js';
import { decodeRaw, normaliseInput } from './normalise-input.js';

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    expect(error).toBeInstanceOf(ImagingError);
    return (error as ImagingError).code;
  }
}

describe('normaliseInput', () => {
  it('applies EXIF orientation and strips metadata', async () => {
    const rotated = await sharp({ create: { width: 60, height: 30, channels: 3, background: '#336699' } })
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { ImageDescription: '<script>alert(1)</script>' } } })
      .toBuffer();
    const clean = await normaliseInput(rotated);
    expect([clean.width, clean.height]).toEqual([30, 60]);
    const meta = await sharp(clean.buffer).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(clean.buffer.includes('<script>')).toBe(false);
  });

  it('turns 16-bit and CMYK input into sRGB 8-bit', async () => {
    const sixteen = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#808080' } })
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    const cmyk = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#ff0000' } })
      .toColourspace('cmyk')
      .jpeg()
      .toBuffer();
    for (const input of [sixteen, cmyk]) {
      const meta = await sharp((await normaliseInput(input)).buffer).metadata();
      expect(meta.space).toBe('srgb');
      expect(meta.depth).toBe('uchar');
    }
  });

  it('keeps transparency as PNG and encodes opaque images as JPEG', async () => {
    const clear = await sharp({
      create: { width: 32, height: 32, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const opaque = await sharp({ create: { width: 32, height: 32, channels: 4, background: '#123456' } })
      .png()
      .toBuffer();
    expect((await normaliseInput(clear)).format).toBe('png');
    expect((await normaliseInput(opaque)).format).toBe('jpeg');
  });

  it('writes opaque images as baseline JPEG, which streams, not progressive, which holds the whole image', async () => {
    const photo = await sharp({
      create: {
        width: 640,
        height: 480,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 30 },
      },
    })
      .png()
      .toBuffer();
    const { buffer } = await normaliseInput(photo);
    const meta = await sharp(buffer).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.isProgressive).toBe(false);
    // Optimised Huffman coding (a first pass over every coefficient) would replace the standard
    // luminance DC table of JPEG's Annex K, class 0 id 0 and its 16 code counts.
    expect(
      buffer.includes(Buffer.from([0x00, 0x00, 0x01, 0x05, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0, 0, 0, 0, 0, 0, 0])),
    ).toBe(true);
  });

  it('finds a single see-through pixel anywhere in the alpha channel, 8-bit or 16-bit', async () => {
    const pixels = Buffer.alloc(300 * 200 * 4, 255);
    pixels[(199 * 300 + 299) * 4 + 3] = 254;
    const eight = await sharp(pixels, { raw: { width: 300, height: 200, channels: 4 } })
      .png()
      .toBuffer();
    const sixteen = await sharp(pixels, { raw: { width: 300, height: 200, channels: 4 } })
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    for (const input of [eight, sixteen]) {
      const clean = await normaliseInput(input);
      expect(clean.format).toBe('png');
      expect((await sharp(clean.buffer).stats()).isOpaque).toBe(false);
    }
  });

  it('keeps only the first frame of an animation', async () => {
    const frames = await sharp({ create: { width: 20, height: 40, channels: 3, background: '#00ff00' } })
      .gif({})
      .toBuffer();
    const raw = await decodeRaw(await sharp(frames, { animated: true }).gif().toBuffer());
    expect([raw.width, raw.height]).toEqual([20, 40]);
  });

  it('refuses what it must refuse with typed errors', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="50" height="50"><script>alert(1)</script></svg>',
    );
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect(await codeOf(normaliseInput(svg))).toBe('unsupported_format');
    expect(await codeOf(normaliseInput(Buffer.from('not an image at all')))).toBe('unsupported_format');
    expect(await codeOf(normaliseInput(png.subarray(0, 60)))).toBe('corrupt_image');
    expect(await codeOf(normaliseInput(Buffer.alloc(0)))).toBe('empty_image');
    const tiff = await sharp({ create: { width: 30, height: 30, channels: 3, background: '#fff' } })
      .tiff()
      .toBuffer();
    expect(await codeOf(normaliseInput(tiff))).toBe('unsupported_format');
    const tiny = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect(await codeOf(normaliseInput(tiny))).toBe('empty_image');
  });
});

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])) >>> 0);
  return Buffer.concat([head, Buffer.from(type), data, crc]);
}

/** A tiny PNG whose header claims the given size: a decompression-bomb stand-in. */
function pngClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('pixel cap', () => {
  it('refuses a header that claims more pixels than the cap before decoding anything', async () => {
    expect(await codeOf(normaliseInput(pngClaiming(70_000, 70_000)))).toBe('image_too_large');
  });
});
