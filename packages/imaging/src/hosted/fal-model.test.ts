import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { createImageModel } from '../create-image-model.js';
import { productPhoto } from '../test-support.js';
import { fakeServer, sendJson } from './fake-server.test-support.js';
import type { Handler } from './fake-server.test-support.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** fal's queue: submit answers request_id and URLs, status goes IN_QUEUE → COMPLETED, then the result. */
function queue(model: string, result: (base: string) => unknown, output: Buffer, polls = { count: 0 }): Handler {
  return (req, res, base) => {
    const id = 'req-123';
    if (req.method === 'POST' && req.url === `/${model}`) {
      sendJson(res, 200, {
        request_id: id,
        status_url: `${base}/${model}/requests/${id}/status`,
        response_url: `${base}/${model}/requests/${id}`,
        cancel_url: `${base}/${model}/requests/${id}/cancel`,
      });
    } else if (req.url === `/${model}/requests/${id}/status`) {
      polls.count++;
      sendJson(res, 200, polls.count < 2 ? { status: 'IN_QUEUE', queue_position: 0 } : { status: 'COMPLETED' });
    } else if (req.url === `/${model}/requests/${id}`) {
      sendJson(res, 200, result(base));
    } else if (req.url === '/cdn/out.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(output);
    } else sendJson(res, 404, { detail: 'not found' });
  };
}

async function start(handler: Handler) {
  const server = await fakeServer(handler);
  close = server.close;
  return { ...server, model: createImageModel({ kind: 'fal', apiKey: 'fal-key', baseUrl: server.base, timeoutMs: 5000, pollIntervalMs: 10 }) };
}

describe('fal adapter against a local fake queue', () => {
  it('submits a product shot, polls, fetches the result and downloads the image', async () => {
    const out = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#aa5500' } }).png().toBuffer();
    const { model, requests } = await start(queue('fal-ai/bria/product-shot', (base) => ({ images: [{ url: `${base}/cdn/out.png`, width: 1024, height: 1024 }] }), out));
    const shot = await model.generate({ image: await productPhoto(300), prompt: 'Modern kitchen', format: 'jpeg' });
    const submit = requests[0]!;
    expect(submit.headers.authorization).toBe('Key fal-key');
    const input = JSON.parse(submit.body.toString()) as Record<string, unknown>;
    expect(input).toMatchObject({ scene_description: 'Modern kitchen', placement_type: 'automatic', shot_size: [1024, 1024], num_results: 1 });
    expect(String(input.image_url)).toMatch(/^data:image\/jpeg;base64,/);
    expect(requests.map((r) => r.url)).toContain('/cdn/out.png');
    expect(shot).toMatchObject({ width: 1024, format: 'jpeg', placement: null, background: { source: 'hosted' } });
  });

  it('removes backgrounds with the background-removal model and returns an RGBA PNG', async () => {
    const out = await sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 9, g: 9, b: 9, alpha: 0.5 } } }).png().toBuffer();
    const { model } = await start(queue('fal-ai/birefnet', (base) => ({ image: { url: `${base}/cdn/out.png`, content_type: 'image/png' } }), out));
    const cutout = await model.removeBackground(await productPhoto(200));
    const meta = await sharp(cutout).metadata();
    expect([meta.format, meta.channels]).toEqual(['png', 4]);
  });

  it('maps validation, auth and unknown queue states to typed errors', async () => {
    const { model: invalid } = await start((req, res) => sendJson(res, 422, { detail: [{ loc: ['body', 'image_url'], msg: 'Invalid image', type: 'value_error' }] }));
    await expect(invalid.generate({ image: await productPhoto(200) })).rejects.toMatchObject({ code: 'model_rejected', message: expect.stringContaining('Invalid image') });
    await close?.();
    const { model: denied } = await start((req, res) => sendJson(res, 401, { detail: 'Unauthorized' }));
    await expect(denied.removeBackground(await productPhoto(200))).rejects.toMatchObject({ code: 'model_auth_failed' });
    await close?.();
    const { model: odd } = await start((req, res, base) =>
      req.method === 'POST' ? sendJson(res, 200, { request_id: 'x', status_url: `${base}/s`, response_url: `${base}/r` }) : sendJson(res, 200, { status: 'EXPLODED' }),
    );
    await expect(odd.removeBackground(await productPhoto(200))).rejects.toMatchObject({ code: 'model_bad_response' });
  });
});
