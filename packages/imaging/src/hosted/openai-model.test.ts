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

async function start(handler: Handler) {
  const server = await fakeServer(handler);
  close = server.close;
  const model = createImageModel({ kind: 'openai', apiKey: 'sk-test', baseUrl: `${server.base}/v1`, imageModel: 'gpt-image-1', chatModel: 'gpt-4o-mini', timeoutMs: 2000 });
  return { ...server, model };
}

const painted = () => sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#204060' } }).png().toBuffer();

/** The documented chat completion answer shape. */
const chatAnswer = (content: unknown) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(content) }, finish_reason: 'stop' }],
});

describe('OpenAI-compatible adapter against a local fake', () => {
  it('sends a multipart image edit and returns the painted frame with the product pasted back', async () => {
    const png = await painted();
    const { model, requests } = await start((req, res) => sendJson(res, 200, { created: 1, data: [{ b64_json: png.toString('base64') }] }));
    const shot = await model.generate({ image: await productPhoto(400, '#ffffff'), prompt: 'Beach sunset', format: 'png' });
    const [edit] = requests;
    expect(edit).toMatchObject({ method: 'POST', url: '/v1/images/edits' });
    expect(edit!.headers.authorization).toBe('Bearer sk-test');
    expect(edit!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const body = edit!.body.toString('latin1');
    expect(body).toContain('name="model"\r\n\r\ngpt-image-1');
    expect(body).toContain('name="size"\r\n\r\n1024x1024');
    expect(body).toMatch(/name="image"; filename="product.png"\r\nContent-Type: image\/png/);
    expect(body).toContain('Beach sunset');
    const raw = await sharp(shot.image).raw().toBuffer();
    const { box } = shot.placement!;
    const at = (x: number, y: number) => Array.from(raw.subarray((y * 1024 + x) * 3, (y * 1024 + x) * 3 + 3));
    expect(at(5, 5)).toEqual([0x20, 0x40, 0x60]);
    expect(at(Math.round(box.x + box.width / 2), Math.round(box.y + box.height * 0.25))[0]).toBeGreaterThan(180);
    expect(shot.background).toMatchObject({ source: 'hosted', scene: 'gpt-image-1' });
  });

  it('downloads an output given as a URL at once', async () => {
    const png = await painted();
    const { model, requests } = await start((req, res, base) => {
      if (req.url === '/files/out.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(png);
      } else sendJson(res, 200, { created: 1, data: [{ url: `${base}/files/out.png` }] });
    });
    const shot = await model.generate({ image: await productPhoto(300), template: 'marble', size: 2048, format: 'jpeg' });
    expect(requests.map((r) => r.url)).toEqual(['/v1/images/edits', '/files/out.png']);
    expect((await sharp(shot.image).metadata()).width).toBe(2048);
  });

  it('analyses with a vision chat request and reads the kind from its JSON answer', async () => {
    const { model, requests } = await start((req, res) => sendJson(res, 200, chatAnswer({ kind: 'footwear', confidence: 0.9 })));
    const analysis = await model.analyse(await productPhoto(300), { title: 'Runner' });
    const sent = JSON.parse(requests[0]!.body.toString()) as { model: string; response_format: unknown; messages: { content: unknown }[] };
    expect(requests[0]!.url).toBe('/v1/chat/completions');
    expect(sent.model).toBe('gpt-4o-mini');
    expect(sent.response_format).toEqual({ type: 'json_object' });
    expect(JSON.stringify(sent.messages[1]!.content)).toContain('data:image/jpeg;base64,');
    expect(analysis).toMatchObject({ kind: 'footwear', kindConfidence: 0.9, supported: true });
  });

  it('recommends styles and enhances prompts through chat', async () => {
    const styles = [1, 2, 3, 4].map((i) => ({ name: `Style ${i}`, prompt: `scene ${i}` }));
    const { model } = await start((req, res) => {
      const text = req.body.toString();
      sendJson(res, 200, text.includes('art-direct')
        ? chatAnswer({ productInfo: { productTitle: 'Runner', productDescription: 'A shoe', productType: 'footwear' }, styles })
        : chatAnswer({ prompt: 'A warm oak table in soft morning light' }));
    });
    const analysis = { width: 1, height: 1, aspect: 1, subject: null, palette: [], brightness: 0.5, kind: 'footwear' as const, kindConfidence: 0.9, supported: true, unsupported: null };
    expect((await model.recommendStyles(analysis)).styles).toHaveLength(4);
    expect(await model.enhancePrompt('Wooden table')).toBe('A warm oak table in soft morning light');
  });

  it.each([
    [401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }, 'model_auth_failed'],
    [429, { error: { message: 'Rate limit reached', type: 'requests' } }, 'model_rate_limited'],
    [500, { error: { message: 'The server had an error', type: 'server_error' } }, 'model_unavailable'],
    [400, { error: { message: 'Your request was rejected by the safety system', code: 'content_policy_violation' } }, 'model_rejected'],
  ])('maps HTTP %i to %s', async (status, body, code) => {
    const { model } = await start((req, res) => sendJson(res, status, body));
    await expect(model.enhancePrompt('Beach sunset')).rejects.toMatchObject({ code });
  });

  it('maps a non-JSON chat answer, a silent server and a refused connection to typed errors', async () => {
    const { model: garbled } = await start((req, res) => sendJson(res, 200, { choices: [{ message: { content: 'sure! here you go' } }] }));
    await expect(garbled.enhancePrompt('Beach')).rejects.toMatchObject({ code: 'model_bad_response' });
    await close?.();
    const silent = await fakeServer(() => undefined);
    close = silent.close;
    const slow = createImageModel({ kind: 'openai', apiKey: 'k', baseUrl: silent.base, timeoutMs: 150 });
    await expect(slow.enhancePrompt('Beach')).rejects.toMatchObject({ code: 'model_timeout' });
    const refused = createImageModel({ kind: 'openai', apiKey: 'k', baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000 });
    await expect(refused.enhancePrompt('Beach')).rejects.toMatchObject({ code: 'model_unavailable' });
  });
});
