import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelBadResponseError } from '../errors.js';
import { fakeServer } from '@prodshot/testing/fakes';
import type { Handler } from '@prodshot/testing/fakes';
import { MAX_DOWNLOAD_BYTES, MAX_RESULT_PIXELS, decodeResult, download, isAllowed, parseRetryAfter } from './http.js';
import type { HttpOptions } from './http.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const http: HttpOptions = {
  model: 'test',
  fetch,
  timeoutMs: 5000,
  classify: () => new ModelBadResponseError('test', 'unexpected'),
};

async function serve(handler: Handler) {
  const server = await fakeServer(handler);
  closers.push(server.close);
  return { ...server, allow: { origins: [server.base], hosts: [] } };
}

/** A real 1×1 PNG whose header claims `side`×`side` pixels: what a hostile answer would send. */
async function pngClaiming(side: number): Promise<Buffer> {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  png.writeUInt32BE(side, 16);
  png.writeUInt32BE(side, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

describe('downloads of provider results', () => {
  it('allow https hosts on the list and the configured origin only', () => {
    const allow = { origins: ['http://127.0.0.1:8080'], hosts: ['fal.media', '*.fal.media'] };
    expect(isAllowed('http://127.0.0.1:8080/files/a.png', allow)).toBe(true);
    expect(isAllowed('https://v3.fal.media/files/a.png', allow)).toBe(true);
    expect(isAllowed('https://fal.media/files/a.png', allow)).toBe(true);
    expect(isAllowed('http://v3.fal.media/files/a.png', allow)).toBe(false);
    expect(isAllowed('https://evilfal.media/a.png', allow)).toBe(false);
    expect(isAllowed('https://fal.media.evil.com/a.png', allow)).toBe(false);
    expect(isAllowed('https://fal.media@evil.com/a.png', allow)).toBe(false);
    expect(isAllowed('http://127.0.0.1:8081/a.png', allow)).toBe(false);
    expect(isAllowed('http://169.254.169.254/latest/meta-data/', allow)).toBe(false);
    expect(isAllowed('file:///etc/passwd', allow)).toBe(false);
  });

  it('never follow a redirect', async () => {
    const target = await serve((req, res) => res.end('secret'));
    const { base, allow } = await serve((req, res) => {
      res.writeHead(302, { location: `${target.base}/metadata` });
      res.end();
    });
    await expect(download(http, `${base}/out.png`, allow)).rejects.toMatchObject({ code: 'model_unavailable' });
    expect(target.requests).toHaveLength(0);
  });

  it('stop reading at the byte cap when no length is declared', async () => {
    let sent = 0;
    const { base, allow } = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(1024 * 1024);
      const pump = () => {
        while (sent < 4 * MAX_DOWNLOAD_BYTES && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    await expect(download(http, `${base}/huge.png`, allow)).rejects.toMatchObject({
      code: 'model_bad_response',
      message: expect.stringContaining('too large'),
    });
    expect(sent).toBeLessThan(4 * MAX_DOWNLOAD_BYTES);
  });

  it('refuse a declared length over the cap without reading the body', async () => {
    const { base, allow } = await serve((req, res) => {
      res.writeHead(200, { 'content-length': String(MAX_DOWNLOAD_BYTES + 1) });
      res.write(Buffer.alloc(16));
    });
    await expect(download(http, `${base}/big.png`, allow)).rejects.toMatchObject({
      code: 'model_bad_response',
      message: expect.stringContaining('too large'),
    });
  });
});

describe('decoding provider results', () => {
  it('refuses an image past the pixel limit before decoding it', async () => {
    const side = Math.ceil(Math.sqrt(MAX_RESULT_PIXELS)) + 1;
    const error = (await decodeResult('test', await pngClaiming(side), (image) => image.raw()).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error).toMatchObject({ code: 'model_bad_response' });
    expect(String((error.cause as Error).message)).toMatch(/pixel limit/);
  });

  it('stops a decode that outlives its time limit', async () => {
    const png = await sharp({
      create: {
        width: 2048,
        height: 2048,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const started = Date.now();
    const error = (await decodeResult('test', png, (image) => image.blur(300).blur(300).raw(), 1).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error).toMatchObject({ code: 'model_bad_response' });
    expect(String((error.cause as Error).message)).toMatch(/timeout/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses formats other than PNG, JPEG and WebP', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>',
    );
    await expect(decodeResult('test', svg, (image) => image.raw())).rejects.toMatchObject({
      code: 'model_bad_response',
      message: expect.stringContaining('svg'),
    });
  });
});

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('7')).toBe(7000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(30_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
