import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type * as Imaging from '@prodshot/imaging/input';
import { signIn, upload, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

// The decoder waits at a gate the test opens, so "every slot busy" is a state, not a race; the
// spy also shows which uploads reached a decoder at all.
const gate = vi.hoisted(() => ({ closed: Promise.resolve() }));
vi.mock('@prodshot/imaging/input', async (importOriginal) => {
  const actual = await importOriginal<typeof Imaging>();
  return {
    ...actual,
    normaliseInput: vi.fn(async (...args: Parameters<typeof actual.normaliseInput>) => {
      await gate.closed;
      return actual.normaliseInput(...args);
    }),
  };
});
const { normaliseInput } = await import('@prodshot/imaging/input');
const decodes = vi.mocked(normaliseInput);

const stack = inject('stack');
let testApp: TestApp;
let session: Session;

beforeAll(async () => {
  testApp = await buildTestApp(stack, {
    env: { UPLOAD_DECODE_CONCURRENCY: '1', UPLOAD_DECODE_QUEUE: '2', SHED_RETRY_AFTER_SECONDS: '7' },
  });
  session = await signIn(testApp, 'queued@example.com');
});
afterAll(() => testApp.close());

function photo(shade: number): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 64, channels: 3, background: { r: shade, g: 90, b: 40 } } })
    .png()
    .toBuffer();
}

async function storedFiles(): Promise<number> {
  const entries = await readdir(path.join(testApp.env.STORAGE_DIR!, 'users'), {
    recursive: true,
    withFileTypes: true,
  }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}

async function imageRows(): Promise<number> {
  return (await testApp.deps.db.selectFrom('images').select('id').where('user_id', '=', session.userId).execute())
    .length;
}

describe('upload decodes under a burst', () => {
  it('runs one, queues two, refuses the rest with 503 and Retry-After, and loses nothing', async () => {
    let open!: () => void;
    gate.closed = new Promise((resolve) => (open = resolve));
    decodes.mockClear();
    const photos = await Promise.all([1, 2, 3, 4, 5].map((i) => photo(i * 40)));
    const answers: LightMyRequestResponse[] = [];
    const pending = photos.map((bytes, i) =>
      upload(testApp, session, bytes, `burst-${i}.png`).then((answer) => (answers.push(answer), answer)),
    );

    // One decoding, two waiting: the other two are answered at once, while the gate is shut.
    await vi.waitFor(() => expect(answers).toHaveLength(2), { timeout: 10_000 });
    for (const refused of answers) {
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('7');
      expect(refused.json()).toMatchObject({
        code: 'overloaded',
        message: 'The service is busy. Please try again in 7 seconds.',
      });
    }
    expect(decodes).toHaveBeenCalledTimes(1);

    // A file that is not an image is refused by its bytes, without a place in the queue or a decoder.
    const text = await upload(testApp, session, Buffer.from('#!/bin/sh\necho not a photo\n'), 'photo.png');
    const svgz = await upload(
      testApp,
      session,
      gzipSync('<svg xmlns="http://www.w3.org/2000/svg" width="99" height="99"/>'),
      'logo.svgz',
    );
    for (const refused of [text, svgz]) expect(refused.statusCode).toBe(415);
    expect(svgz.json().message).toContain('SVGZ');
    expect(decodes).toHaveBeenCalledTimes(1);
    expect((await testApp.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    open();
    const finished = await Promise.all(pending);
    const accepted = finished.filter((answer) => answer.statusCode === 201);
    expect(accepted).toHaveLength(3);
    expect(await imageRows()).toBe(3);
    expect(await storedFiles()).toBe(3);

    // The refused two were not half-stored: sent again, they go through.
    const refusedNames = finished
      .filter((answer) => answer.statusCode === 503)
      .map((answer) => finished.indexOf(answer));
    for (const i of refusedNames)
      expect((await upload(testApp, session, photos[i]!, `burst-${i}.png`)).statusCode).toBe(201);
    expect(await imageRows()).toBe(5);
    expect(await storedFiles()).toBe(5);
  });
});
