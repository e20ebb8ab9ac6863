import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { UPLOAD_MAX_BYTES } from '@prodshot/contracts';
import { multipartBody, signIn, upload, type Session } from '../../seller-client.test-support.js';
import { UploadDecoder } from '../../services/uploads/upload-intake.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

// One decode place in all (1 running, none waiting): an upload holding it shows at once in the
// next one's answer, and a place never given back shows as a 503 where a 201 belongs.
const stack = inject('stack');
let testApp: TestApp;
let session: Session;
let photo: Buffer;

// Calls through: the test only learns when an upload has taken its place, to send the next one then.
const takes = vi.spyOn(UploadDecoder.prototype, 'take');

beforeAll(async () => {
  testApp = await buildTestApp(stack, {
    listen: true,
    env: { UPLOAD_DECODE_CONCURRENCY: '1', UPLOAD_DECODE_QUEUE: '0', SHED_RETRY_AFTER_SECONDS: '9' },
  });
  session = await signIn(testApp, 'capacity@example.com');
  // Noise, so the PNG is large (about 0.8 MB) and its body arrives in many chunks after its head.
  photo = await sharp({
    create: {
      width: 512,
      height: 512,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer();
});
afterAll(() => testApp.close());
afterEach(() => takes.mockClear());

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * An upload over a real socket of which only the multipart head and the file's first 64 kB are
 * sent: `finish` sends the rest, `abort` cuts the connection. `bodySent` says whether the body
 * was ever finished, so an answer seen before it was cannot have come from a buffered body.
 */
function partialUpload(file: Buffer) {
  const body = multipartBody([{ name: 'image', filename: 'partial.png', contentType: 'image/png', data: file }]);
  const headEnd = body.payload.indexOf(file.subarray(0, 16)) + 64 * 1024;
  const port = (testApp.app.server.address() as AddressInfo).port;
  const request = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/images/upload',
    headers: { ...body.headers, ...session.auth, 'content-length': String(body.payload.length) },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    request.on('error', reject);
  });
  const sent = new Promise<void>((resolve) => request.on('finish', resolve));
  request.write(body.payload.subarray(0, headEnd));
  return {
    answer,
    /** Settles once the whole body has gone out: it never does while the server stops reading. */
    sent,
    bodySent: () => request.writableEnded,
    finish: () => request.end(body.payload.subarray(headEnd)),
    abort: () => request.destroy(),
  };
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

/** Waits until the upload's file has taken its place (the place is taken before its body is read). */
async function placeTaken(count: number): Promise<void> {
  await vi.waitFor(() => expect(takes.mock.results.filter((result) => result.type === 'return')).toHaveLength(count), {
    timeout: 10_000,
  });
}

/**
 * An upload over a socket whose file takes its place first, then the rest of its body is sent;
 * the body the server refused part-way is read to nowhere, so the client's send completes.
 */
async function sentInFull(file: Buffer): Promise<{ statusCode: number }> {
  const sending = partialUpload(file);
  await placeTaken(1);
  sending.finish();
  const [answer] = await Promise.all([sending.answer, sending.sent]);
  return { statusCode: answer.status };
}

function injectUpload(parts: Parameters<typeof multipartBody>[0]) {
  const body = multipartBody(parts);
  return testApp.app.inject({
    method: 'POST',
    url: '/api/images/upload',
    payload: body.payload,
    headers: { ...body.headers, ...session.auth },
  });
}

describe('an upload takes its decode place when its file begins, before its body is read', () => {
  it('refuses uploads past every place with 503 and Retry-After before their bodies are sent, and stores nothing for them', async () => {
    const rowsBefore = await imageRows();
    const filesBefore = await storedFiles();
    const holder = partialUpload(photo);
    await placeTaken(1);

    // Only the head of this one's file has been sent: the refusal cannot have waited for its body.
    const early = partialUpload(photo);
    const refused = await early.answer;
    expect(early.bodySent()).toBe(false);
    early.abort();
    const whole = await upload(testApp, session, photo, 'whole.png');
    for (const answer of [
      { status: refused.status, headers: refused.headers, json: JSON.parse(refused.body) as unknown },
      { status: whole.statusCode, headers: whole.headers, json: whole.json() as unknown },
    ]) {
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBe('9');
      expect(answer.json).toMatchObject({
        code: 'overloaded',
        message: 'The service is busy. Please try again in 9 seconds.',
      });
    }
    expect(await imageRows()).toBe(rowsBefore);
    expect(await storedFiles()).toBe(filesBefore);

    // The holder's body arrives after all and is stored; its place is then free for the next one.
    holder.finish();
    expect((await holder.answer).status).toBe(201);
    expect((await upload(testApp, session, photo, 'after.png')).statusCode).toBe(201);
    expect(await imageRows()).toBe(rowsBefore + 2);
    expect(await storedFiles()).toBe(filesBefore + 2);
  });

  it('still refuses a file that is not an image by its magic bytes (415) while every place is held', async () => {
    const holder = partialUpload(photo);
    await placeTaken(1);
    const text = await upload(testApp, session, Buffer.from('#!/bin/sh\necho not a photo\n'), 'photo.png');
    expect(text.statusCode).toBe(415);
    holder.finish();
    expect((await holder.answer).status).toBe(201);
  });

  it('gives the place back when the client disconnects part-way through the body: the next upload is stored', async () => {
    const rowsBefore = await imageRows();
    const cut = partialUpload(photo);
    await placeTaken(1);
    cut.abort();
    await expect(cut.answer).rejects.toThrow();
    // The server learns of the disconnect a moment later; a place never given back would answer 503 for ever.
    await vi.waitFor(
      async () => expect((await upload(testApp, session, photo, 'after-cut.png')).statusCode).toBe(201),
      { timeout: 10_000, interval: 100 },
    );
    expect(await imageRows()).toBe(rowsBefore + 1);
  });

  const corrupt = () => Buffer.concat([photo.subarray(0, 4096), Buffer.alloc(8192, 0xab)]);
  const failures: [string, () => Promise<{ statusCode: number }>, number][] = [
    // Over a socket, so its head arrives (and takes the place) before busboy cuts it at the limit;
    // four times the limit, more than the kernel's socket buffers hold, so an unread rest would stall the send.
    [
      'a file over UPLOAD_MAX_BYTES (the rest of its body read to nowhere)',
      () => sentInFull(Buffer.concat([photo, Buffer.alloc(4 * UPLOAD_MAX_BYTES, 1)])),
      413,
    ],
    ['a PNG whose body is corrupt', () => upload(testApp, session, corrupt(), 'corrupt.png'), 422],
    [
      'a second image file',
      () =>
        injectUpload([
          { name: 'image', filename: 'a.png', data: photo },
          { name: 'image', filename: 'b.png', data: photo },
        ]),
      400,
    ],
    [
      'a name field over its limit after the file',
      () =>
        injectUpload([
          { name: 'image', filename: 'a.png', data: photo },
          { name: 'name', data: 'x'.repeat(4096) },
        ]),
      413,
    ],
  ];
  it.each(failures)(
    'gives the place back after %s is refused: the next upload is stored',
    async (_what, send, status) => {
      const rowsBefore = await imageRows();
      expect((await send()).statusCode).toBe(status);
      expect(takes).toHaveBeenCalled();
      expect(await imageRows()).toBe(rowsBefore);
      expect((await upload(testApp, session, photo, 'next.png')).statusCode).toBe(201);
      expect(await imageRows()).toBe(rowsBefore + 1);
    },
  );
});
