import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import { balanceOf, eventually, grantCredits, signIn, upload, type Session } from '../seller-client.test-support.js';
import { sellerCutout } from './fault-support.test-support.js';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;
let worker: WorkerProcess;
let session: Session;
let imageId: string;
let model: Server;
let painted: string;
/** Every request body the model server received. */
const received: Buffer[] = [];

/**
 * An OpenAI-compatible image server on loopback that answers edits with a painted frame, except
 * for prompts asking for a hang, which it never answers: a model call that hangs for real.
 */
async function startModel(): Promise<string> {
  painted = (
    await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#d9c7a7' } })
      .png()
      .toBuffer()
  ).toString('base64');
  model = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push(Buffer.concat(chunks));
      if (Buffer.concat(chunks).includes('HANG-FOREVER')) return;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ created: 1, data: [{ b64_json: painted }] }));
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
}

beforeAll(async () => {
  const baseUrl = await startModel();
  testApp = await buildTestApp(stack, {
    env: { IMAGE_MODEL: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: baseUrl, ENGINE_TIMEOUT_MS: '3000' },
  });
  session = await signIn(testApp, 'hung@example.com');
  await grantCredits(testApp, session.userId, 3);
  const photo = await sellerCutout('#335');
  imageId = (await upload(testApp, session, photo, 'bottle.png')).json()._id;
  worker = await startWorkerProcess(testApp.env);
  // As the web app does: generate once the upload has been analysed.
  await eventually(
    async () =>
      (await testApp.app.inject({ method: 'GET', url: `/api/images/${imageId}/subject`, headers: session.auth })).json()
        .data.status === 'ready',
    60_000,
    'the upload to be analysed',
  );
});

afterAll(async () => {
  await worker.stop('SIGKILL');
  model.closeAllConnections();
  model.close();
  await testApp.close();
});

describe('a hung model call', () => {
  it('times out, fails and refunds its own output while the others complete', async () => {
    const start = (prompt: string) =>
      testApp.app
        .inject({
          method: 'POST',
          url: '/api/images/generate-product-shots',
          headers: { ...session.auth, prefer: 'respond-async' },
          payload: { imageId, prompt },
        })
        .then((r) => r.json().data.generationId as string);
    const ids = [await start('Beach sunset'), await start('HANG-FOREVER please'), await start('Marble counter')];
    const settled = await eventually(
      async () => {
        const all = await Promise.all(
          ids.map((id) =>
            testApp.app
              .inject({ method: 'GET', url: `/api/generations/${id}`, headers: session.auth })
              .then((r) => r.json().data),
          ),
        );
        return all.every((g) => g.status === 'complete' || g.status === 'failed') ? all : null;
      },
      60_000,
      'every generation to settle',
    );
    expect(settled.map((g) => g.status)).toEqual(['complete', 'failed', 'complete']);
    expect(settled[1].styles[0].error).toMatch(/did not answer within 3 s/);
    expect(await balanceOf(testApp, session.userId)).toBe(1);
  });

  it('names the seller to the provider by a hash of their id, never the id itself', () => {
    const edits = received.filter((body) => body.includes('name="image'));
    expect(edits.length).toBeGreaterThan(0);
    const hashed = createHash('sha256').update(session.userId).digest('hex');
    for (const body of edits) {
      expect(body.toString('latin1')).toMatch(new RegExp(`name="user"\r\n\r\n${hashed}\r\n`));
      expect(body.includes(session.userId)).toBe(false);
    }
  });
});
