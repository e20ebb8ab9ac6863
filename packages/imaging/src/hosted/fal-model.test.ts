import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createImageModel } from '../create-image-model.js';
import { withProductHint } from './fal-model.js';
import { productPhoto } from '../test-support.js';
import { colouredTransparentPixels } from '../local/cutout/cutout.test-support.js';
import { fakeServer, sendJson } from '@prodshot/testing/fakes';
import type { Handler } from '@prodshot/testing/fakes';

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
  const alert = vi.fn();
  return {
    ...server,
    alert,
    model: createImageModel({
      kind: 'fal',
      apiKey: 'fal-key',
      baseUrl: server.base,
      timeoutMs: 5000,
      pollIntervalMs: 10,
      alert,
    }),
  };
}

/** A second server standing for any host that is not fal's. */
async function elsewhere() {
  const server = await fakeServer((req, res) => sendJson(res, 200, { status: 'COMPLETED' }));
  const previous = close;
  close = async () => {
    await previous?.();
    await server.close();
  };
  return server;
}

describe('fal adapter against a local fake queue', () => {
  it('submits a product shot, polls, fetches the result and downloads the image', async () => {
    const out = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#aa5500' } })
      .png()
      .toBuffer();
    const { model, requests } = await start(
      queue(
        'fal-ai/bria/product-shot',
        (base) => ({ images: [{ url: `${base}/cdn/out.png`, width: 1024, height: 1024 }] }),
        out,
      ),
    );
    const shot = await model.generate({ image: await productPhoto(300), prompt: 'Modern kitchen', format: 'jpeg' });
    const submit = requests[0]!;
    expect(submit.headers.authorization).toBe('Key fal-key');
    const input = JSON.parse(submit.body.toString()) as Record<string, unknown>;
    expect(input).toMatchObject({
      scene_description: 'Modern kitchen',
      placement_type: 'automatic',
      shot_size: [1024, 1024],
      num_results: 1,
    });
    expect(String(input.image_url)).toMatch(/^data:image\/jpeg;base64,/);
    expect(requests.map((r) => r.url)).toContain('/cdn/out.png');
    expect(shot).toMatchObject({ width: 1024, format: 'jpeg', placement: null, background: { source: 'hosted' } });
  });

  it("tells the model what the product is from the seller's title, and sends the scene alone without one", async () => {
    const out = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#aa5500' } })
      .png()
      .toBuffer();
    const { model, requests } = await start(
      queue(
        'fal-ai/bria/product-shot',
        (base) => ({ images: [{ url: `${base}/cdn/out.png`, width: 1024, height: 1024 }] }),
        out,
      ),
    );
    await model.generate({
      image: await productPhoto(300),
      prompt: 'Modern kitchen',
      hints: { title: '  Blue  ceramic mug ' },
    });
    expect(JSON.parse(requests[0]!.body.toString())).toMatchObject({
      scene_description: 'Modern kitchen. The product is: Blue ceramic mug',
    });
    expect(withProductHint('Studio', '   ')).toBe('Studio');
  });

  it('removes backgrounds with the background-removal model and returns an RGBA PNG, clear where transparent', async () => {
    // Its left half half opaque; its right half transparent but still holding the photo's red, as a service may leave it.
    const rgba = Buffer.alloc(64 * 64 * 4);
    for (let p = 0; p < 64 * 64; p++) rgba.set(p % 64 < 32 ? [9, 40, 30, 128] : [200, 40, 30, 0], p * 4);
    const out = await sharp(rgba, { raw: { width: 64, height: 64, channels: 4 } })
      .png()
      .toBuffer();
    expect(colouredTransparentPixels(await sharp(out).raw().toBuffer())).toBeGreaterThan(0);
    const { model } = await start(
      queue('fal-ai/birefnet', (base) => ({ image: { url: `${base}/cdn/out.png`, content_type: 'image/png' } }), out),
    );
    const cutout = await model.removeBackground(await productPhoto(200));
    const meta = await sharp(cutout).metadata();
    expect([meta.format, meta.channels]).toEqual(['png', 4]);
    const pixels = await sharp(cutout).raw().toBuffer();
    expect(colouredTransparentPixels(pixels)).toBe(0);
    expect([...pixels.subarray(0, 4)]).toEqual([9, 40, 30, 128]);
  });

  it('maps our own bad request to an operator alert, a content-policy refusal to our words, auth and unknown queue states to typed errors', async () => {
    const { model: invalid, alert } = await start((req, res) =>
      sendJson(res, 422, { detail: [{ loc: ['body', 'image_url'], msg: 'Invalid image', type: 'value_error' }] }),
    );
    const misconfigured = (await invalid
      .generate({ image: await productPhoto(200) })
      .catch((e: unknown) => e)) as Error;
    expect(misconfigured).toMatchObject({ code: 'model_misconfigured', problem: 'request' });
    expect(misconfigured.message).not.toContain('Invalid image');
    expect(alert).toHaveBeenCalledTimes(1);
    await close?.();
    const { model: refusing } = await start((req, res) =>
      sendJson(res, 422, {
        detail: [
          {
            loc: ['body', 'image_url'],
            msg: 'NSFW content detected in the input image',
            type: 'content_policy_violation',
          },
        ],
      }),
    );
    const refusal = (await refusing.generate({ image: await productPhoto(200) }).catch((e: unknown) => e)) as Error;
    expect(refusal).toMatchObject({ code: 'model_rejected', reason: 'content_policy' });
    expect(refusal.message).not.toContain('NSFW');
    await close?.();
    const { model: denied } = await start((req, res) => sendJson(res, 401, { detail: 'Unauthorized' }));
    await expect(denied.removeBackground(await productPhoto(200))).rejects.toMatchObject({ code: 'model_auth_failed' });
    await close?.();
    const { model: odd } = await start((req, res, base) =>
      req.method === 'POST'
        ? sendJson(res, 200, { request_id: 'x', status_url: `${base}/s`, response_url: `${base}/r` })
        : sendJson(res, 200, { status: 'EXPLODED' }),
    );
    await expect(odd.removeBackground(await productPhoto(200))).rejects.toMatchObject({ code: 'model_bad_response' });
  });

  it('sends the key only to fal: a queue answer naming another host is refused before any request goes there', async () => {
    const other = await elsewhere();
    const { model, requests } = await start((req, res) =>
      sendJson(res, 200, { request_id: 'x', status_url: `${other.base}/status`, response_url: `${other.base}/result` }),
    );
    await expect(model.removeBackground(await productPhoto(200))).rejects.toMatchObject({ code: 'model_bad_response' });
    expect(requests).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
  });

  it("downloads results only from fal's CDN or the queue's own origin", async () => {
    const other = await elsewhere();
    const { model } = await start(
      queue('fal-ai/birefnet', () => ({ image: { url: `${other.base}/cdn/out.png` } }), Buffer.alloc(0)),
    );
    await expect(model.removeBackground(await productPhoto(200))).rejects.toMatchObject({ code: 'model_bad_response' });
    expect(other.requests).toHaveLength(0);
  });
});
