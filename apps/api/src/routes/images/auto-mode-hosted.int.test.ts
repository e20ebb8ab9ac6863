import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import type { GenerationDto } from '@prodshot/contracts';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import { sellerCutout } from '../../faults/fault-support.test-support.js';
import { eventually, grantCredits, signIn, upload, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;
let worker: WorkerProcess;
let session: Session;
let imageId: string;
let model: Server;
/** What the model was asked, in order: its chat prompts, and the edit prompts. */
const asked: { path: string; body: string }[] = [];
const STYLES = [
  { name: 'Sunlit Terrace', prompt: 'terracotta tiles on a sunlit terrace with olive branches' },
  { name: 'Night Market', prompt: 'a lantern-lit night market stall' },
  { name: 'Paper Studio', prompt: 'seamless cream paper backdrop' },
];

function chat(content: object) {
  return {
    id: 'c',
    object: 'chat.completion',
    created: 1,
    model: 'gpt',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(content) } }],
  };
}

/** An OpenAI-compatible server: it reads the product as beauty, recommends STYLES, and paints any edit. */
async function startModel(): Promise<string> {
  const painted = (
    await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#e3c9a5' } })
      .png()
      .toBuffer()
  ).toString('base64');
  model = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('latin1');
      asked.push({ path: request.url ?? '', body });
      const answer = !request.url?.endsWith('/chat/completions')
        ? { created: 1, data: [{ b64_json: painted }] }
        : body.includes('art-direct')
          ? chat({
              productInfo: { productTitle: 'Serum', productDescription: 'A serum', productType: 'beauty' },
              styles: STYLES,
            })
          : chat({ kind: 'beauty', confidence: 0.9 });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
}

beforeAll(async () => {
  testApp = await buildTestApp(stack, {
    env: { IMAGE_MODEL: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: await startModel() },
  });
  session = await signIn(testApp, 'auto-hosted@example.com');
  await grantCredits(testApp, session.userId, 3);
  const photo = await sellerCutout('#a34');
  imageId = (await upload(testApp, session, photo, 'serum.png')).json()._id;
  worker = await startWorkerProcess(testApp.env);
}, 60_000);

afterAll(async () => {
  await worker.stop('SIGKILL');
  model.closeAllConnections();
  model.close();
  await testApp.close();
});

describe('auto mode with a hosted model', () => {
  it("asks the model for styles from its reading of the product and paints the first one's scene", async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/generate-product-shots',
      headers: { ...session.auth, prefer: 'respond-async' },
      payload: { imageId, backgroundType: 'auto' },
    });
    expect(response.statusCode, response.body).toBe(202);
    const done = await eventually(
      async () => {
        const row = (
          await testApp.app.inject({
            method: 'GET',
            url: `/api/generations/${response.json().data.generationId}`,
            headers: session.auth,
          })
        ).json<{ data: GenerationDto }>().data;
        return row.status === 'complete' || row.status === 'failed' ? row : null;
      },
      60_000,
      'the hosted auto shot',
    );
    expect(done).toMatchObject({ kind: 'auto', status: 'complete', productInfo: { productType: 'beauty' } });
    expect(done.styles).toEqual([
      expect.objectContaining({ name: STYLES[0]!.name, prompt: STYLES[0]!.prompt, status: 'complete' }),
    ]);
    // The analysis went into the recommendation, and the recommendation into the painting.
    const recommendation = asked.find((call) => call.body.includes('art-direct'));
    expect(recommendation?.body).toContain('beauty');
    const edit = asked.find((call) => call.path.endsWith('/images/edits'));
    expect(edit?.body).toContain(STYLES[0]!.prompt);
  });
});
