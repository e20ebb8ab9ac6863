import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { templateName, type GenerationDto } from '@prodshot/contracts';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import { balanceOf, eventually, grantCredits, signIn, upload, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;
let worker: WorkerProcess;
let session: Session;
let imageId: string;
const hints = { productTitle: 'Rose serum', productDescription: 'Skin care serum in a glass bottle' };

beforeAll(async () => {
  testApp = await buildTestApp(stack);
  worker = await startWorkerProcess(testApp.env);
  session = await signIn(testApp, 'auto@example.com');
  await grantCredits(testApp, session.userId, 20);
  const bottle = await sharp({
    create: { width: 220, height: 480, channels: 4, background: { r: 220, g: 90, b: 120, alpha: 1 } },
  })
    .png()
    .toBuffer();
  const photo = await sharp({ create: { width: 800, height: 800, channels: 3, background: '#f4f4f4' } })
    .composite([{ input: bottle, left: 290, top: 160 }])
    .jpeg()
    .toBuffer();
  const uploaded = await upload(testApp, session, photo, 'serum.jpg');
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  imageId = uploaded.json()._id;
}, 60_000);

afterAll(async () => {
  await worker.stop('SIGKILL');
  await testApp.close();
});

function post(url: string, payload: object, headers: Record<string, string> = {}) {
  return testApp.app.inject({ method: 'POST', url, payload, headers: { ...session.auth, ...headers } });
}

async function generation(id: string): Promise<GenerationDto> {
  return (await testApp.app.inject({ method: 'GET', url: `/api/generations/${id}`, headers: session.auth })).json<{
    data: GenerationDto;
  }>().data;
}

describe("auto mode (docs/product-spec.md §4: the engine picks the scene; history type 'Auto')", () => {
  it('makes one shot by default, for one credit, in the scene the engine recommends first, recorded on the generation', async () => {
    const before = await balanceOf(testApp, session.userId);
    const response = await post('/api/images/generate-product-shots', { imageId, backgroundType: 'auto', ...hints });
    expect(response.statusCode, response.body).toBe(200);
    const { generationId, processedImages } = response.json().data;
    expect(processedImages).toHaveLength(1);
    expect(processedImages[0].settings.backgroundType).toBe('auto');
    expect(templateName(processedImages[0].settings.backgroundType)).toBe('Auto');
    expect(await balanceOf(testApp, session.userId)).toBe(before - 1);

    const recorded = await generation(generationId);
    expect(recorded.kind).toBe('auto');
    expect(recorded.productInfo?.productType).toBeTruthy();
    // The same analysis the style recommendations read, so the pick is their first style.
    const recommended = await post('/api/images/generate-product-style-recommendations', { imageId, ...hints });
    expect(recommended.statusCode, recommended.body).toBe(200);
    const [first] = recommended.json().data.styles;
    expect(recorded.styles).toEqual([
      expect.objectContaining({ index: 0, status: 'complete', name: first.name, prompt: first.prompt }),
    ]);
  });

  it('makes as many shots as asked, all in the one scene it picked, and charges one credit each', async () => {
    const before = await balanceOf(testApp, session.userId);
    const response = await post(
      '/api/images/generate-product-shots',
      { imageId, backgroundType: 'auto', count: 3, ...hints },
      { prefer: 'respond-async' },
    );
    expect(response.statusCode, response.body).toBe(202);
    const done = await eventually(
      async () => {
        const row = await generation(response.json().data.generationId);
        return row.status === 'complete' ? row : null;
      },
      60_000,
      'three auto shots',
    );
    expect(done.kind).toBe('auto');
    expect(done.styles.map((s) => s.status)).toEqual(['complete', 'complete', 'complete']);
    expect(new Set(done.styles.map((s) => `${s.name}|${s.prompt}`)).size).toBe(1);
    expect(done.styles[0]!.prompt).toBeTruthy();
    expect(await balanceOf(testApp, session.userId)).toBe(before - 3);
  });

  it('picks the same scene again for the same product', async () => {
    const first = await post('/api/images/generate-product-shots', { imageId, backgroundType: 'auto', ...hints });
    const second = await post('/api/images/generate-product-shots', { imageId, backgroundType: 'auto', ...hints });
    const [a, b] = await Promise.all([
      generation(first.json().data.generationId),
      generation(second.json().data.generationId),
    ]);
    expect(a.styles[0]!.name).toBe(b.styles[0]!.name);
    expect(a.styles[0]!.prompt).toBe(b.styles[0]!.prompt);
  });

  it('refuses a prompt beside auto, and more than four shots, before charging anything', async () => {
    const before = await balanceOf(testApp, session.userId);
    const withPrompt = await post('/api/images/generate-product-shots', {
      imageId,
      backgroundType: 'auto',
      prompt: 'Beach sunset',
    });
    expect(withPrompt.statusCode).toBe(400);
    expect(withPrompt.json()).toMatchObject({
      code: 'auto_with_prompt',
      message: 'Auto mode picks the scene itself: send no prompt with it',
    });
    expect(
      (await post('/api/images/generate-product-shots', { imageId, backgroundType: 'auto', count: 5 })).statusCode,
    ).toBe(400);
    expect(await balanceOf(testApp, session.userId)).toBe(before);
  });
});
