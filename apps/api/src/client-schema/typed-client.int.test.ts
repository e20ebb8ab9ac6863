import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createProdshotClient, formData } from '@prodshot/client';
import { corpusFile } from '@prodshot/fixtures';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import { balanceOf, eventually, grantCredits, signIn } from '../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;
let worker: WorkerProcess;

beforeAll(async () => {
  testApp = await buildTestApp(stack, { listen: true });
  worker = await startWorkerProcess(testApp.env);
});
afterAll(async () => {
  await worker?.stop();
  await testApp?.close();
});

describe('@prodshot/client against the API listening on loopback', () => {
  it('creates a key with the session, then with the key uploads, starts a smart generation with an Idempotency-Key, waits for it, downloads a shot, and a replay of the key answers the same generation', async () => {
    const session = await signIn(testApp, 'typed-client@example.com');
    await grantCredits(testApp, session.userId, 10);
    const baseUrl = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;

    const created = await createProdshotClient({ baseUrl, apiKey: session.token }).POST('/api/keys', {
      body: { name: 'Typed client', scopes: ['generate', 'read'] },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const client = createProdshotClient({ baseUrl, apiKey: created.data!.key });

    const photo = await readFile(corpusFile('products', 'saleor-beanie-1.png'));
    const uploaded = await client.POST('/api/images/upload', {
      body: { image: new File([photo], 'beanie.png') },
      bodySerializer: formData,
    });
    expect(uploaded.response.status, JSON.stringify(uploaded.error)).toBe(201);
    const imageId = uploaded.data!._id;

    const start = () =>
      client.POST('/api/images/smart-generate-product-shots', {
        body: { imageId, styleCount: 2 },
        params: { header: { 'Idempotency-Key': 'typed-client-1' } },
      });
    const started = await start();
    expect(started.response.status, JSON.stringify(started.error)).toBe(202);
    const { generationId } = started.data!.data;

    const generation = await eventually(
      async () => {
        const { data } = await client.GET('/api/generations/{id}', { params: { path: { id: generationId } } });
        return data && (data.data.status === 'complete' || data.data.status === 'failed') ? data.data : undefined;
      },
      150_000,
      'the generation to finish',
    );
    expect(generation).toMatchObject({ id: generationId, kind: 'smart', status: 'complete', imageId });
    expect(generation.styles.map((style) => style.status)).toEqual(['complete', 'complete']);

    const shot = await client.GET('/api/generations/{id}/styles/{index}/download', {
      params: { path: { id: generationId, index: 0 } },
      parseAs: 'arrayBuffer',
    });
    expect(shot.response.status).toBe(200);
    expect(shot.response.headers.get('content-type')).toBe('image/jpeg');
    expect((shot.data as ArrayBuffer).byteLength).toBeGreaterThan(1000);

    const replay = await start();
    expect(replay.response.status).toBe(202);
    expect(replay.data!.data.generationId).toBe(generationId);
    expect(await balanceOf(testApp, session.userId)).toBe(8);
  }, 180_000); // two styles rendered: seconds alone, minutes beside other suites on a busy machine
});
