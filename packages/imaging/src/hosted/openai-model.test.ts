import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ImagingError } from '../errors.js';
import { productPhoto } from '../test-support.js';
import type { Analysis } from '../types.js';
import { fakeServer } from '@prodshot/testing/fakes';
import { OpenAIImageModel } from './openai-model.js';
import type { OpenAIOptions } from './openai-model.js';
import { apiError, chatCompletion, imagesResponse, imagesUrlResponse, openAIFake } from '@prodshot/testing/fakes';
import type { Answer, OpenAICall } from '@prodshot/testing/fakes';

const closers: (() => Promise<void>)[] = [];
let violations: string[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  // Every request the adapter sent, and every answer the fake gave, held to OpenAI's document.
  expect(violations).toEqual([]);
  violations = [];
});

async function start(
  answer: (call: OpenAICall) => Answer,
  options: Partial<OpenAIOptions> = {},
  files: Record<string, Buffer> = {},
) {
  const fake = await openAIFake(answer, files);
  closers.push(fake.close);
  violations = fake.violations;
  const alert = vi.fn();
  const model = new OpenAIImageModel({
    apiKey: 'sk-test',
    baseUrl: fake.base,
    imageModel: 'gpt-image-1',
    chatModel: 'gpt-4o-mini',
    timeoutMs: 5000,
    alert,
    ...options,
  });
  return { ...fake, model, alert };
}

const ok = (body: unknown): Answer => ({ status: 200, body });
const painted = () =>
  sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#204060' } })
    .png()
    .toBuffer();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const analysis: Analysis = {
  width: 1,
  height: 1,
  aspect: 1,
  subject: null,
  palette: [],
  brightness: 0.5,
  kind: 'footwear',
  kindConfidence: 0.9,
  supported: true,
  unsupported: null,
};

async function file(form: FormData, name: string): Promise<Buffer> {
  const value = form.get(name);
  if (!(value instanceof Blob)) throw new Error(`no file ${name} in the form`);
  return Buffer.from(await value.arrayBuffer());
}

describe('OpenAI-compatible adapter against a fake that holds it to the published document', () => {
  it('sends the edit the contract defines: an opaque image and a mask that keeps the product, with the seller in `user`', async () => {
    const png = await painted();
    const { model, calls } = await start(() => ok(imagesResponse(png)));
    const shot = await model.generate(
      { image: await productPhoto(400, '#ffffff'), prompt: 'Beach sunset', format: 'png' },
      { sellerId: 'seller-42' },
    );
    const [edit] = calls;
    expect(edit).toMatchObject({ method: 'POST', path: '/images/edits' });
    expect(edit!.headers.authorization).toBe('Bearer sk-test');
    expect(Object.fromEntries([...edit!.form!].filter(([, v]) => typeof v === 'string'))).toMatchObject({
      model: 'gpt-image-1',
      size: '1024x1024',
      n: '1',
      user: sha256('seller-42'),
      prompt: expect.stringContaining('Beach sunset'),
    });
    expect(edit!.form!.has('response_format')).toBe(false);

    const image = await sharp(await file(edit!.form!, 'image'))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const mask = await sharp(await file(edit!.form!, 'mask'))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(image.info.channels).toBe(3);
    expect([mask.info.width, mask.info.height]).toEqual([image.info.width, image.info.height]);
    const alpha = (x: number, y: number) => mask.data[(y * mask.info.width + x) * 4 + 3];
    const { box } = shot.placement!;
    const onProduct = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height * 0.25) };
    expect(alpha(onProduct.x, onProduct.y)).toBe(255);
    for (const [x, y] of [
      [5, 5],
      [1018, 1018],
      [Math.round(box.x) - 6, onProduct.y],
      [Math.round(box.x + box.width) + 6, onProduct.y],
    ])
      expect(alpha(x!, y!)).toBe(0);
    // Kept exactly where the image sent shows the product, not the neutral backdrop around it.
    let agree = 0;
    let partial = 0;
    for (let i = 0; i < image.info.width * image.info.height; i++) {
      const a = mask.data[i * 4 + 3]!;
      if (a !== 0 && a !== 255) partial++;
      const backdrop =
        Math.abs(image.data[i * 3]! - 128) <= 2 &&
        Math.abs(image.data[i * 3 + 1]! - 128) <= 2 &&
        Math.abs(image.data[i * 3 + 2]! - 128) <= 2;
      if ((a === 255) !== backdrop) agree++;
    }
    expect(partial).toBe(0);
    expect(agree / (image.info.width * image.info.height)).toBeGreaterThan(0.995);

    const raw = await sharp(shot.image).raw().toBuffer();
    const at = (x: number, y: number) => Array.from(raw.subarray((y * 1024 + x) * 3, (y * 1024 + x) * 3 + 3));
    expect(at(5, 5)).toEqual([0x20, 0x40, 0x60]);
    expect(at(onProduct.x, onProduct.y)[0]).toBeGreaterThan(180);
    expect(shot.background).toMatchObject({ source: 'hosted', scene: 'gpt-image-1' });
  });

  it('asks dall-e-2 for base64, the only model the document lets choose', async () => {
    const png = await painted();
    const { model, calls } = await start(() => ok(imagesResponse(png)), { imageModel: 'dall-e-2' });
    await model.generate({ image: await productPhoto(300), template: 'marble', size: 2048, format: 'jpeg' });
    expect(calls[0]!.form!.get('response_format')).toBe('b64_json');
  });

  it("downloads a URL answer from the server's own origin, and refuses one on any other host without fetching it", async () => {
    const png = await painted();
    const elsewhere = await fakeServer((req, res) => res.end(png));
    closers.push(elsewhere.close);
    let target = '';
    const { model, origin, downloads } = await start(
      () => ok(imagesUrlResponse(target)),
      { imageModel: 'compatible-image-model' },
      { '/files/out.png': png },
    );

    target = `${elsewhere.base}/out.png`;
    await expect(model.generate({ image: await productPhoto(300), format: 'png' })).rejects.toMatchObject({
      code: 'model_bad_response',
    });
    expect(elsewhere.requests).toHaveLength(0);

    target = `${origin}/files/out.png`;
    const shot = await model.generate({ image: await productPhoto(300), format: 'png' });
    expect(downloads).toEqual(['/files/out.png']);
    expect((await sharp(shot.image).metadata()).width).toBe(1024);
  });

  it('analyses with a vision chat request that validates, sending the seller as safety_identifier', async () => {
    const { model, calls } = await start(() => ok(chatCompletion({ content: { kind: 'footwear', confidence: 0.9 } })));
    const result = await model.analyse(await productPhoto(300), { title: 'Runner' }, { sellerId: 'seller-42' });
    const sent = calls[0]!.json as {
      model: string;
      response_format: unknown;
      safety_identifier: string;
      messages: { content: unknown }[];
    };
    expect(calls[0]!.path).toBe('/chat/completions');
    expect(sent).toMatchObject({
      model: 'gpt-4o-mini',
      response_format: { type: 'json_object' },
      safety_identifier: sha256('seller-42'),
    });
    expect(JSON.stringify(sent.messages[1]!.content)).toContain('data:image/jpeg;base64,');
    expect(result).toMatchObject({ kind: 'footwear', kindConfidence: 0.9, supported: true });
  });

  it('reads the kind from the photo alone: the title neither reaches the classifier nor refuses what the photo does not', async () => {
    let reading: Record<string, unknown> = { kind: 'unknown', confidence: 0.2 };
    const { model, calls } = await start(() => ok(chatCompletion({ content: reading })));
    const photo = await productPhoto(300);

    expect(await model.analyse(photo, { title: 'Apple drink' })).toMatchObject({
      kind: 'unknown',
      supported: true,
      unsupported: null,
    });
    expect(JSON.stringify(calls[0]!.json)).not.toContain('Apple drink');

    reading = { kind: 'beauty', confidence: 0.8 };
    expect(await model.analyse(photo, { title: 'Apple drink' })).toMatchObject({
      kind: 'beauty',
      kindConfidence: 0.8,
      supported: true,
    });

    reading = { kind: 'food', confidence: 0.9 };
    expect(await model.readKind(photo)).toEqual({ kind: 'food', confidence: 0.9 });
    expect(await model.analyse(photo)).toMatchObject({
      kind: 'food',
      supported: false,
      unsupported: { message: 'This product type is currently not supported' },
    });
    expect(await model.analyse(photo, { title: 'Rose serum' })).toMatchObject({ kind: 'food', supported: false });
  });

  it('recommends styles and enhances prompts through chat', async () => {
    const styles = [1, 2, 3, 4].map((i) => ({ name: `Style ${i}`, prompt: `scene ${i}` }));
    const { model } = await start((call) =>
      ok(
        JSON.stringify(call.json).includes('art-direct')
          ? chatCompletion({
              content: {
                productInfo: { productTitle: 'Runner', productDescription: 'A shoe', productType: 'footwear' },
                styles,
              },
            })
          : chatCompletion({ content: { prompt: 'A warm oak table in soft morning light' } }),
      ),
    );
    expect((await model.recommendStyles(analysis)).styles).toHaveLength(4);
    expect(await model.enhancePrompt('Wooden table')).toBe('A warm oak table in soft morning light');
  });

  it.each([
    [{ refusal: "I'm sorry, I can't help with that." }, 'refusal'],
    [{ content: '{"prompt": "A warm oak', finish_reason: 'length' as const }, 'length'],
    [{ content: '', finish_reason: 'content_filter' as const }, 'content_filter'],
  ])('maps the chat answer %j to a refusal (%s) in our own words', async (reply, reason) => {
    const { model } = await start(() => ok(chatCompletion(reply)));
    const error = (await model.enhancePrompt('Beach').catch((e: unknown) => e)) as ImagingError & { reason: string };
    expect(error).toMatchObject({ code: 'model_rejected', reason });
    expect(error.message).not.toMatch(/sorry|oak/i);
  });

  it.each([
    [
      'a wrong key',
      401,
      apiError('Incorrect API key provided: sk-test.', 'invalid_request_error', null, 'invalid_api_key'),
      { code: 'model_auth_failed' },
      false,
    ],
    [
      'an outage',
      500,
      apiError('The server had an error while processing your request.', 'server_error', null, null),
      { code: 'model_unavailable' },
      false,
    ],
    [
      'its safety system',
      400,
      apiError(
        'Your request was rejected by the safety system.',
        'image_generation_user_error',
        null,
        'moderation_blocked',
      ),
      { code: 'model_rejected', reason: 'content_policy' },
      false,
    ],
    [
      'a content policy violation',
      400,
      apiError(
        'Your request was rejected as a result of our safety system.',
        'invalid_request_error',
        null,
        'content_policy_violation',
      ),
      { code: 'model_rejected', reason: 'content_policy' },
      false,
    ],
    [
      'an unknown model',
      404,
      apiError('The model `gpt-image-0` does not exist.', 'invalid_request_error', null, 'model_not_found'),
      { code: 'model_misconfigured', problem: 'model' },
      true,
    ],
    [
      'a bad parameter of ours',
      400,
      apiError("Invalid value: '999x999'.", 'invalid_request_error', 'size', 'invalid_value'),
      { code: 'model_misconfigured', problem: 'request' },
      true,
    ],
  ])('tells %s apart by status, type, code and param', async (_, status, body, expected, alerted) => {
    const { model, alert } = await start(() => ({ status, body }));
    const error = (await model
      .generate({ image: await productPhoto(200), format: 'png' })
      .catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject(expected);
    expect(error.message).not.toContain(body.error.message);
    expect(alert).toHaveBeenCalledTimes(alerted ? 1 : 0);
  });

  it('honours Retry-After on 429: waits what the server asked, then sends again', async () => {
    let sentAt: number[] = [];
    const { model } = await start(() => {
      sentAt = [...sentAt, Date.now()];
      return sentAt.length === 1
        ? {
            status: 429,
            headers: { 'retry-after': '1' },
            body: apiError(
              'Rate limit reached for gpt-4o-mini on requests per min.',
              'requests',
              null,
              'rate_limit_exceeded',
            ),
          }
        : ok(chatCompletion({ content: { prompt: 'A calm beach' } }));
    });
    expect(await model.enhancePrompt('Beach')).toBe('A calm beach');
    expect(sentAt).toHaveLength(2);
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(950);
  });

  it('gives up at once when Retry-After is past the call budget, telling the worker how long to wait', async () => {
    const { model, calls } = await start(() => ({
      status: 429,
      headers: { 'retry-after': '120' },
      body: apiError('Rate limit reached.', 'requests', null, 'rate_limit_exceeded'),
    }));
    await expect(model.enhancePrompt('Beach')).rejects.toMatchObject({
      code: 'model_rate_limited',
      retryable: true,
      retryAfterMs: 120_000,
    });
    expect(calls).toHaveLength(1);
  });

  it('treats insufficient_quota as the operator’s to fix: alerted, never retried', async () => {
    const { model, calls, alert } = await start(() => ({
      status: 429,
      headers: { 'retry-after': '1' },
      body: apiError(
        'You exceeded your current quota, please check your plan and billing details.',
        'insufficient_quota',
        null,
        'insufficient_quota',
      ),
    }));
    await expect(model.enhancePrompt('Beach')).rejects.toMatchObject({
      code: 'model_misconfigured',
      problem: 'quota',
      retryable: false,
    });
    expect(calls).toHaveLength(1);
    expect(alert).toHaveBeenCalledWith(
      expect.objectContaining({ problem: 'quota' }),
      expect.objectContaining({ status: 429 }),
    );
  });

  it('maps a non-JSON chat answer, a silent server and a refused connection to typed errors', async () => {
    const { model: garbled } = await start(() => ok(chatCompletion({ content: 'sure! here you go' })));
    await expect(garbled.enhancePrompt('Beach')).rejects.toMatchObject({ code: 'model_bad_response' });
    const silent = await fakeServer(() => undefined);
    closers.push(silent.close);
    const slow = new OpenAIImageModel({ apiKey: 'k', baseUrl: silent.base, timeoutMs: 150 });
    await expect(slow.enhancePrompt('Beach')).rejects.toMatchObject({ code: 'model_timeout' });
    const refused = new OpenAIImageModel({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000 });
    await expect(refused.enhancePrompt('Beach')).rejects.toMatchObject({ code: 'model_unavailable' });
  });
});
