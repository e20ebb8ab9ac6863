import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import {
  MAX_TAPS,
  OUTLINE_UNCONFIRMED_MESSAGE,
  TAP_TO_FIND_MESSAGE,
  type SubjectDto,
  type SubjectResponse,
  type Tap,
} from '@prodshot/contracts';
import { JOB_QUEUE, jobIds } from '@prodshot/queue';
import { startWorkerProcess, sunglassesOnPebbles, type WorkerProcess } from '@prodshot/testing';
import { balanceOf, eventually, grantCredits, signIn, upload, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;
let worker: WorkerProcess;
let seller: Session;

beforeAll(async () => {
  testApp = await buildTestApp(stack);
  worker = await startWorkerProcess(testApp.env);
  seller = await signIn(testApp, 'outline@example.com');
  await grantCredits(testApp, seller.userId, 10);
}, 60_000);

afterAll(async () => {
  await worker.stop('SIGKILL');
  await testApp.close();
});

const red = { r: 200, g: 60, b: 40, alpha: 1 };

/** A red box on a pale backdrop at (left, top): centred it is a clear product; along the frame, an unsure one. */
async function photo(left: number, top: number, width = 220, height = 480): Promise<Buffer> {
  const product = await sharp({ create: { width, height, channels: 4, background: red } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 800, height: 800, channels: 3, background: '#f4f4f4' } })
    .composite([{ input: product, left, top }])
    .jpeg()
    .toBuffer();
}

function post(url: string, payload?: object, who: Session = seller) {
  return testApp.app.inject({ method: 'POST', url, ...(payload ? { payload } : {}), headers: who.auth });
}

async function uploaded(bytes: Buffer, name: string, who: Session = seller): Promise<string> {
  const response = await upload(testApp, who, bytes, name);
  expect(response.statusCode, response.body).toBe(201);
  return response.json()._id as string;
}

/** The subject once the worker has looked (and made the outline). */
function analysed(imageId: string, who: Session = seller): Promise<SubjectDto> {
  return eventually(
    async () => {
      const response = await testApp.app.inject({
        method: 'GET',
        url: `/api/images/${imageId}/subject`,
        headers: who.auth,
      });
      const { data } = response.json<SubjectResponse>();
      return data.status === 'pending' ? null : data;
    },
    60_000,
    'the upload analysis',
  );
}

async function generationsOf(userId: string): Promise<{ request: unknown }[]> {
  return testApp.deps.db.selectFrom('generations').select('request').where('user_id', '=', userId).execute();
}

describe('the outline a seller sees before paying', () => {
  it('comes with the subject: the cutout served as a WebP of at most 768 px, sure of a clear product', async () => {
    const imageId = await uploaded(await photo(290, 160), 'bottle.jpg');
    const subject = await analysed(imageId);
    expect(subject.outline).toMatchObject({
      unsure: false,
      reasons: [],
      confirmed: false,
      focus: null,
      needsConfirmation: false,
    });
    const file = await testApp.app.inject({
      method: 'GET',
      url: new URL(subject.outline!.url!, 'http://x').pathname + new URL(subject.outline!.url!, 'http://x').search,
    });
    expect(file.statusCode).toBe(200);
    const meta = await sharp(file.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.hasAlpha).toBe(true);
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(768);
  }, 90_000);

  it('holds no credit for an unsure outline until the seller confirms it, then generates from it', async () => {
    const imageId = await uploaded(await photo(0, 160, 400), 'against the edge.jpg');
    const subject = await analysed(imageId);
    expect(subject.outline).toMatchObject({ unsure: true, confirmed: false, needsConfirmation: true });
    expect(subject.outline!.reasons).toContain('touches_frame');
    const before = await balanceOf(testApp, seller.userId);
    const generationsBefore = (await generationsOf(seller.userId)).length;
    const refusals = await Promise.all([
      post('/api/images/generate-product-shots', { imageId, backgroundType: 'lightwood' }),
      post('/api/images/smart-generate-product-shots', { imageId }),
      post(`/api/images/${imageId}/remove-background`, {}),
      post(`/api/images/${imageId}/generate-background`, { backgroundType: 'lightwood' }),
      post('/api/batches', {
        items: [{ imageId }],
        choice: { mode: 'template', backgroundType: 'lightwood', count: 1 },
      }),
    ]);
    for (const refusal of refusals) {
      expect(refusal.statusCode, refusal.body).toBe(409);
      expect(refusal.json()).toMatchObject({ code: 'outline_unconfirmed', message: OUTLINE_UNCONFIRMED_MESSAGE });
    }
    expect(await balanceOf(testApp, seller.userId)).toBe(before);
    expect(await generationsOf(seller.userId)).toHaveLength(generationsBefore);

    const confirmed = await post(`/api/images/${imageId}/outline/confirm`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json<SubjectResponse>().data.outline).toMatchObject({
      unsure: true,
      confirmed: true,
      needsConfirmation: false,
    });
    const shot = await post('/api/images/generate-product-shots', { imageId, backgroundType: 'lightwood' });
    expect(shot.statusCode, shot.body).toBe(200);
    expect(await balanceOf(testApp, seller.userId)).toBe(before - 1);
  }, 120_000);

  it('takes a call’s own focus as the seller’s choice, as the tap step does', async () => {
    const imageId = await uploaded(await photo(0, 160, 400), 'tapped in the call.jpg');
    expect((await analysed(imageId)).outline?.needsConfirmation).toBe(true);
    const shot = await post('/api/images/generate-product-shots', {
      imageId,
      backgroundType: 'lightwood',
      focus: { x: 0.2, y: 0.5 },
    });
    expect(shot.statusCode, shot.body).toBe(200);
  }, 120_000);

  it('remakes the outline for a tap, and every later generation from the upload uses that tap', async () => {
    const imageId = await uploaded(await photo(0, 160, 400), 'fixed.jpg');
    const first = await analysed(imageId);
    const tap = { x: 0.2, y: 0.5 };
    const fixed = await post(`/api/images/${imageId}/outline`, { focus: tap });
    expect(fixed.statusCode, fixed.body).toBe(200);
    const { outline } = fixed.json<SubjectResponse>().data;
    // A lone point is one keep tap, and its outline keeps the key a single point always had.
    expect(outline).toMatchObject({ focus: [{ ...tap, keep: true }], confirmed: false, needsConfirmation: false });
    expect(outline!.url).not.toBe(first.outline!.url);
    expect(outline!.url).toContain('outline-200-500');

    const shot = await post('/api/images/generate-product-shots', { imageId, backgroundType: 'lightwood' });
    expect(shot.statusCode, shot.body).toBe(200);
    const { generationId } = shot.json().data;
    const row = await testApp.deps.db
      .selectFrom('generations')
      .select('request')
      .where('id', '=', generationId)
      .executeTakeFirstOrThrow();
    expect(row.request).toMatchObject({ focus: [{ ...tap, keep: true }] });

    // Back to the engine's pick: the tap is dropped and the unsure outline must be confirmed again.
    const reset = await post(`/api/images/${imageId}/outline`, {});
    expect(reset.json<SubjectResponse>().data.outline).toMatchObject({ focus: null, needsConfirmation: true });
  }, 120_000);

  it('answers a tap on bare backdrop with 422, the seller’s miss, and leaves the outline as it was', async () => {
    const imageId = await uploaded(await photo(290, 160), 'missed.jpg');
    const before = (await analysed(imageId)).outline;
    const missed = await post(`/api/images/${imageId}/outline`, { focus: { x: 0.04, y: 0.04 } });
    expect(missed.statusCode, missed.body).toBe(422);
    expect(missed.json()).toMatchObject({
      code: 'tap_missed',
      message: expect.stringContaining('Tap on the product itself'),
    });
    const after = (await analysed(imageId)).outline;
    // The same stored outline (its link is signed again on each read).
    expect({ ...after, url: after?.url?.split('?')[0] }).toEqual({ ...before, url: before?.url?.split('?')[0] });
  }, 90_000);

  it('answers another seller’s upload with 404, and leaves its outline as it was', async () => {
    const imageId = await uploaded(await photo(0, 160, 400), 'mine.jpg');
    await analysed(imageId);
    const other = await signIn(testApp, 'other-outline@example.com');
    expect((await post(`/api/images/${imageId}/outline`, { focus: { x: 0.5, y: 0.5 } }, other)).statusCode).toBe(404);
    expect((await post(`/api/images/${imageId}/outline/confirm`, undefined, other)).statusCode).toBe(404);
    expect((await analysed(imageId)).outline).toMatchObject({ confirmed: false, focus: null, needsConfirmation: true });
  }, 90_000);
});

describe('taps that add and remove', () => {
  let tapper: Session;
  beforeAll(async () => {
    // A seller of their own: the outline calls share a per-minute budget.
    tapper = await signIn(testApp, 'taps@example.com');
    await grantCredits(testApp, tapper.userId, 10);
  });

  const keep: Tap = { x: 0.2, y: 0.5, keep: true };
  const drop: Tap = { x: 0.8, y: 0.5, keep: false };

  /** What a generation's job was queued with, read from its queue. */
  async function queuedFocus(name: 'product-shot' | 'remove-background', generationId: string): Promise<unknown> {
    const job = await testApp.deps.producer.queue(JOB_QUEUE[name]).getJob(jobIds.generation(generationId));
    return job?.data.focus;
  }

  it('remakes the outline for a list of taps, records them in order, and a later generation carries them', async () => {
    const imageId = await uploaded(await photo(0, 160, 400), 'two taps.jpg', tapper);
    const first = await analysed(imageId, tapper);
    const fixed = await post(`/api/images/${imageId}/outline`, { focus: [keep, drop] }, tapper);
    expect(fixed.statusCode, fixed.body).toBe(200);
    const { outline } = fixed.json<SubjectResponse>().data;
    expect(outline).toMatchObject({ focus: [keep, drop], confirmed: false, needsConfirmation: false });
    expect(outline!.url).toMatch(/outline-taps-[0-9a-f]{16}\.webp/);
    expect(outline!.url).not.toBe(first.outline!.url);

    // No focus of its own: the taps the seller fixed the outline with are the job's, and the request's.
    const shot = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/generate-product-shots',
      payload: { imageId, backgroundType: 'lightwood' },
      headers: { ...tapper.auth, prefer: 'respond-async' },
    });
    expect(shot.statusCode, shot.body).toBe(202);
    const { generationId } = shot.json().data;
    expect(await queuedFocus('product-shot', generationId)).toEqual([keep, drop]);
    const row = await testApp.deps.db
      .selectFrom('generations')
      .select('request')
      .where('id', '=', generationId)
      .executeTakeFirstOrThrow();
    expect(row.request).toMatchObject({ focus: [keep, drop] });

    // A call's own taps win over the outline's.
    const own = await testApp.app.inject({
      method: 'POST',
      url: `/api/images/${imageId}/remove-background`,
      payload: { focus: [drop] },
      headers: { ...tapper.auth, prefer: 'respond-async' },
    });
    expect(own.statusCode, own.body).toBe(202);
    expect(await queuedFocus('remove-background', own.json().data.generationId)).toEqual([drop]);
  }, 120_000);

  it('refuses more than eight taps or a malformed one with 400, before anything is made or held', async () => {
    const imageId = await uploaded(await photo(0, 160, 400), 'too many.jpg', tapper);
    await analysed(imageId, tapper);
    const before = await balanceOf(testApp, tapper.userId);
    const nine = Array.from({ length: MAX_TAPS + 1 }, (_, i) => ({ x: i / 10, y: 0.5, keep: i % 2 === 0 }));
    const malformed: unknown[] = [
      nine,
      [],
      [{ x: 0.2, y: 0.5 }],
      [{ x: 1.2, y: 0.5, keep: true }],
      [{ x: 0.2, y: 0.5, keep: 'yes' }],
      // A lone tap object is not a point: read as one, its `keep: false` would turn into a keep tap.
      { x: 0.2, y: 0.5, keep: false },
    ];
    for (const focus of malformed) {
      for (const [url, extra] of [
        [`/api/images/${imageId}/outline`, {}],
        ['/api/images/generate-product-shots', { imageId, backgroundType: 'lightwood' }],
        [`/api/images/${imageId}/remove-background`, {}],
      ] as const) {
        const refused = await post(url, { ...extra, focus }, tapper);
        expect(refused.statusCode, `${url} ${JSON.stringify(focus)}`).toBe(400);
        expect(refused.json(), url).toMatchObject({
          statusCode: 400,
          error: 'Bad Request',
          code: 'invalid_request',
          message: expect.any(String),
        });
      }
    }
    const eight = await post(`/api/images/${imageId}/outline`, { focus: nine.slice(0, MAX_TAPS) }, tapper);
    expect(eight.statusCode, eight.body).toBe(200);
    expect(eight.json<SubjectResponse>().data.outline!.focus).toHaveLength(MAX_TAPS);
    expect(await balanceOf(testApp, tapper.userId)).toBe(before);
  }, 120_000);

  it('reads an outline stored before taps, its single point, as one keep tap that later generations use', async () => {
    const imageId = await uploaded(await photo(0, 160, 400), 'old outline.jpg', tapper);
    const { outline } = await analysed(imageId, tapper);
    const row = await testApp.deps.db
      .selectFrom('images')
      .select('outline')
      .where('id', '=', imageId)
      .executeTakeFirstOrThrow();
    await testApp.deps.db
      .updateTable('images')
      .set({ outline: JSON.stringify({ ...row.outline, focus: { x: 0.2, y: 0.5 } }) })
      .where('id', '=', imageId)
      .execute();
    expect((await analysed(imageId, tapper)).outline).toMatchObject({
      url: expect.any(String),
      focus: [keep],
      needsConfirmation: false,
    });
    expect(outline!.needsConfirmation).toBe(true);
    const shot = await testApp.app.inject({
      method: 'POST',
      url: `/api/images/${imageId}/remove-background`,
      payload: {},
      headers: { ...tapper.auth, prefer: 'respond-async' },
    });
    expect(shot.statusCode, shot.body).toBe(202);
    expect(await queuedFocus('remove-background', shot.json().data.generationId)).toEqual([keep]);
  }, 120_000);

  it('answers another seller’s upload with 404 for a list of taps, and leaves its outline as it was', async () => {
    const imageId = await uploaded(await photo(0, 160, 400), 'not yours.jpg', tapper);
    await analysed(imageId, tapper);
    const other = await signIn(testApp, 'other-taps@example.com');
    const refused = await post(`/api/images/${imageId}/outline`, { focus: [keep, drop] }, other);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ statusCode: 404, code: 'image_not_found' });
    expect((await analysed(imageId, tapper)).outline).toMatchObject({ focus: null, needsConfirmation: true });
  }, 90_000);
});

describe('a tap on a refused photo', () => {
  let finder: Session;
  beforeAll(async () => {
    finder = await signIn(testApp, 'tap-to-find@example.com');
  });

  it('finds the product the engine did not see, through the worker as it ships, and the refusal gives way', async () => {
    const { photo: bytes, tap } = await sunglassesOnPebbles();
    const imageId = await uploaded(bytes, 'sunglasses.jpg', finder);
    const refused = await analysed(imageId, finder);
    // The refusal crosses the worker's engine thread and still says why, to the seller and the coach.
    expect(refused).toMatchObject({ status: 'failed', tapMayFind: true, outline: null });
    expect(refused.coach).toContainEqual(expect.objectContaining({ code: 'no_product' }));

    // Without a keep tap there is nothing to remake: the answer says to tap.
    for (const payload of [{}, { focus: [{ ...tap, keep: false }] }]) {
      const untapped = await post(`/api/images/${imageId}/outline`, payload, finder);
      expect(untapped.statusCode, untapped.body).toBe(422);
      expect(untapped.json()).toMatchObject({
        code: 'no_product',
        message: expect.stringContaining(TAP_TO_FIND_MESSAGE),
      });
    }

    const found = await post(`/api/images/${imageId}/outline`, { focus: [{ ...tap, keep: true }] }, finder);
    expect(found.statusCode, found.body).toBe(200);
    const subject = found.json<SubjectResponse>().data;
    expect(subject).toMatchObject({ status: 'ready', needsFocus: false, error: null });
    expect(subject.outline).toMatchObject({ focus: [{ ...tap, keep: true }], needsConfirmation: false });
    expect(subject.coach?.map((warning) => warning.code)).not.toContain('no_product');
    expect(await analysed(imageId, finder)).toMatchObject({
      status: 'ready',
      outline: { focus: [{ ...tap, keep: true }] },
    });
  }, 120_000);

  it('answers a keep tap on a blank photo as the seller’s miss, and the refusal stands', async () => {
    const blank = await sharp({ create: { width: 800, height: 800, channels: 3, background: '#d8d4cc' } })
      .jpeg()
      .toBuffer();
    const imageId = await uploaded(blank, 'wall.jpg', finder);
    expect(await analysed(imageId, finder)).toMatchObject({ status: 'failed', tapMayFind: true });
    // A keep tap on nothing is the seller's miss: the refusal stands.
    const missed = await post(`/api/images/${imageId}/outline`, { focus: [{ x: 0.5, y: 0.5, keep: true }] }, finder);
    expect(missed.statusCode, missed.body).toBe(422);
    expect(missed.json()).toMatchObject({ code: 'tap_missed' });
    expect(await analysed(imageId, finder)).toMatchObject({ status: 'failed', outline: null });
  }, 90_000);
});
