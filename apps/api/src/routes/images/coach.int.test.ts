import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import type { CoachWarning, ImageDto, ImageListResponse, SubjectDto, SubjectResponse } from '@prodshot/contracts';
import { corpusFile } from '@prodshot/fixtures';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import { eventually, signIn, upload, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
const shoeFile = corpusFile('products', 'saleor-blue-plimsolls-1.png');

let testApp: TestApp;
let worker: WorkerProcess;
let session: Session;

beforeAll(async () => {
  testApp = await buildTestApp(stack);
  worker = await startWorkerProcess(testApp.env);
  session = await signIn(testApp, 'coached@example.com');
}, 60_000);

afterAll(async () => {
  await worker.stop('SIGKILL');
  await testApp.close();
});

const codes = (warnings: CoachWarning[] | undefined) => (warnings ?? []).map((w) => w.code).sort();

function get<T>(url: string): Promise<T> {
  return testApp.app.inject({ method: 'GET', url, headers: session.auth }).then((r) => r.json<T>());
}

async function uploaded(photo: Buffer, name: string): Promise<ImageDto> {
  const response = await upload(testApp, session, photo, name);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ImageDto>();
}

/** The subject once the worker has looked, with every coach warning. */
function analysed(imageId: string): Promise<SubjectDto> {
  return eventually(
    async () => {
      const { data } = await get<SubjectResponse>(`/api/images/${imageId}/subject`);
      return data.status === 'pending' ? null : data;
    },
    60_000,
    'the upload analysis',
  );
}

describe('the photo coach on an upload (corpus photos)', () => {
  it('answers a clean corpus photo with no warning, before and after the product checks', async () => {
    const shoe = await sharp(shoeFile).toBuffer();
    const image = await uploaded(shoe, 'blue plimsolls shoe.png');
    expect(image.coach).toEqual([]);
    expect((await analysed(image._id)).coach).toEqual([]);
    const list = await get<ImageListResponse>('/api/images');
    expect(list.data.find((item) => item._id === image._id)?.coach).toEqual([]);
  }, 90_000);

  it('warns of a blurred corpus photo at upload, with advice naming the product, and keeps the warning once analysed', async () => {
    const blurred = await sharp(shoeFile).blur(10).png().toBuffer();
    const image = await uploaded(blurred, 'blue plimsolls shoe.png');
    expect(image.coach).toEqual([
      {
        code: 'blurry',
        message: 'This photo looks blurry.',
        advice: 'Hold the phone steady (rest it on something) and tap the shoe on screen to focus before you shoot.',
      },
    ]);
    expect(codes((await get<{ data: ImageDto }>(`/api/images/${image._id}`)).data.coach)).toEqual(['blurry']);
    expect(codes((await analysed(image._id)).coach)).toEqual(['blurry']);
  }, 90_000);

  it('warns of a photo too small for the plan’s shots (once, after the product checks too) and of one that cuts the product off, naming the edge', async () => {
    // No plan: 1024 px shots, whose product needs 298 px.
    const tiny = await uploaded(await sharp(shoeFile).resize(240).png().toBuffer(), 'tiny.png');
    expect(codes(tiny.coach)).toEqual(['low_resolution']);
    expect(codes((await analysed(tiny._id)).coach)).toEqual(['low_resolution']);
    const { width = 0, height = 0 } = await sharp(shoeFile).metadata();
    const cut = await uploaded(
      await sharp(shoeFile)
        .flatten({ background: '#f2efe9' })
        .extract({ left: 0, top: 0, width: Math.round(width * 0.5), height })
        .jpeg()
        .toBuffer(),
      'cut.jpg',
    );
    expect(cut.coach).toEqual([]);
    expect((await analysed(cut._id)).coach).toContainEqual(
      expect.objectContaining({ code: 'product_cut_off', message: 'The product is cut off at the right edge.' }),
    );
  }, 90_000);

  it('answers another seller’s upload with 404, never its warnings', async () => {
    const image = await uploaded(await sharp(shoeFile).blur(10).png().toBuffer(), 'mine.png');
    const other = await signIn(testApp, 'other-coached@example.com');
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/api/images/${image._id}/subject`,
      headers: other.auth,
    });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('blurry');
  });
});
