import { gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ImagingError } from '../errors.js';

// Every call into sharp is counted (and still made): a refused file must never reach a decoder.
vi.mock('sharp', async (importOriginal) => {
  const actual = await importOriginal<{ default: typeof sharp }>();
  return { default: vi.fn(actual.default) };
});
const { normaliseInput } = await import('./normalise-input.js');
const decoder = vi.mocked(sharp);

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="50" height="50"><rect width="50" height="50"/></svg>';

async function refusal(buffer: Buffer): Promise<ImagingError> {
  const error: unknown = await normaliseInput(buffer).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ImagingError);
  return error as ImagingError;
}

describe('magic bytes are checked before any decoder runs', () => {
  let tiff: Buffer;
  let png: Buffer;
  beforeEach(async () => {
    tiff = await sharp({ create: { width: 30, height: 30, channels: 3, background: '#fff' } })
      .tiff()
      .toBuffer();
    png = await sharp({ create: { width: 30, height: 30, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    decoder.mockClear();
  });

  it('refuses gzipped SVG (SVGZ), which libvips would inflate and load, by name', async () => {
    const error = await refusal(gzipSync(Buffer.from(SVG)));
    expect(error.code).toBe('unsupported_format');
    expect(error.message).toContain('SVGZ');
    expect(decoder).not.toHaveBeenCalled();
  });

  it('refuses TIFF, text, a PDF and a ZIP without decoding them', async () => {
    const others = [
      tiff,
      Buffer.from('not an image at all'),
      Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n', 'latin1'),
      Buffer.from('PK\x03\x04\x14\x00\x00\x00\x08\x00', 'latin1'),
    ];
    for (const buffer of others) expect((await refusal(buffer)).code).toBe('unsupported_format');
    expect((await refusal(tiff)).message).toContain('(TIF)');
    expect(decoder).not.toHaveBeenCalled();
  });

  it('refuses an SVG, with or without an XML declaration, as SVG', async () => {
    for (const text of [SVG, `<?xml version="1.0"?>\n${SVG}`])
      expect((await refusal(Buffer.from(text))).message).toContain('(SVG)');
    expect(decoder).not.toHaveBeenCalled();
  });

  it('lets an accepted image through to the decoder', async () => {
    expect((await normaliseInput(png)).format).toBe('jpeg');
    expect(decoder).toHaveBeenCalled();
  });
});
