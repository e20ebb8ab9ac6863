import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ComplianceReportDto, ExportDto } from '@prodshot/contracts';
import { GenerationsRepository } from '@prodshot/db';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import { balanceOf, grantCredits, signIn, upload, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;
let worker: WorkerProcess;
let seller: Session;
let other: Session;
let generationId: string;

/** What the bytes are, by their magic numbers, whatever they are named. */
function magic(bytes: Buffer): 'png' | 'jpeg' | 'webp' | 'other' {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'webp';
  return 'other';
}

async function productPhoto(): Promise<Buffer> {
  const product = await sharp({ create: { width: 500, height: 900, channels: 3, background: '#c8102e' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 1600, height: 1600, channels: 3, background: '#eeeeee' } })
    .composite([{ input: product, left: 550, top: 350 }])
    .jpeg()
    .toBuffer();
}

const post = (session: Session, payload: unknown) =>
  testApp.app.inject({
    method: 'POST',
    url: '/api/exports',
    headers: session.auth,
    payload: payload as Record<string, unknown>,
  });
const fetchSigned = (signed: string) => {
  const url = new URL(signed);
  return testApp.app.inject({ method: 'GET', url: url.pathname + url.search });
};
const compliance = (session: Session, query: string, id = generationId) =>
  testApp.app.inject({ method: 'GET', url: `/api/generations/${id}/compliance?${query}`, headers: session.auth });

beforeAll(async () => {
  testApp = await buildTestApp(stack, { listen: true });
  worker = await startWorkerProcess(testApp.env);
  seller = await signIn(testApp, 'exports@example.com');
  other = await signIn(testApp, 'exports-other@example.com');
  await grantCredits(testApp, seller.userId, 3);
  const uploaded = await upload(testApp, seller, await productPhoto(), 'bottle.jpg');
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  // The seller's title for the upload names its exports.
  const titled = await testApp.app.inject({
    method: 'PUT',
    url: `/api/images/${uploaded.json()._id}/title`,
    headers: seller.auth,
    payload: { productTitle: 'Green Bottle' },
  });
  expect(titled.statusCode, titled.body).toBe(200);
  const shot = await testApp.app.inject({
    method: 'POST',
    url: '/api/images/generate-product-shots',
    headers: seller.auth,
    payload: { imageId: uploaded.json()._id, backgroundType: 'marble', count: 1 },
  });
  expect(shot.statusCode, shot.body).toBe(200);
  generationId = shot.json().data.generationId;
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await testApp?.close();
});

describe('POST /api/exports', () => {
  it('renders an Amazon JPEG at 2000 px, named .jpg and holding JPEG bytes, without charging a credit; asked twice, rendered once', async () => {
    const before = await balanceOf(testApp, seller.userId);
    const first = await post(seller, { generationId, outputIndex: 0, preset: 'amazon', format: 'jpeg' });
    expect(first.statusCode, first.body).toBe(200);
    const data = first.json<{ data: ExportDto }>().data;
    expect(data).toMatchObject({
      contentType: 'image/jpeg',
      width: 2000,
      height: 2000,
      preset: 'amazon',
      format: 'jpeg',
    });
    expect(data.fileName).toBe('green-bottle-amazon-1.jpg');
    const file = await fetchSigned(data.url);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(magic(file.rawPayload)).toBe('jpeg');
    expect(await sharp(file.rawPayload).metadata()).toMatchObject({ width: 2000, height: 2000, format: 'jpeg' });
    const download = await testApp.app.inject({ method: 'GET', url: data.downloadPath, headers: seller.auth });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain(`filename="${data.fileName}"`);
    expect(download.rawPayload.equals(file.rawPayload)).toBe(true);

    const again = await post(seller, { generationId, outputIndex: 0, preset: 'amazon', format: 'jpeg' });
    expect(again.statusCode).toBe(200);
    expect((await fetchSigned(again.json<{ data: ExportDto }>().data.url)).rawPayload.equals(file.rawPayload)).toBe(
      true,
    );
    const jobs = await testApp.deps.producer.queue('render').getJobs(['completed', 'active', 'waiting', 'failed']);
    expect(jobs.filter((job) => job.name === 'export-shot')).toHaveLength(1);
    expect(await balanceOf(testApp, seller.userId)).toBe(before);
  }, 60_000);

  it('names every format by what its bytes are: PNG and WebP for the Instagram story, a transparent PNG cutout', async () => {
    for (const [preset, format, ext, size] of [
      ['instagram-story', 'webp', 'webp', [1080, 1920]],
      ['instagram-post', 'png', 'png', [1080, 1350]],
      ['transparent', 'png', 'png', null],
    ] as const) {
      const response = await post(seller, { generationId, outputIndex: 0, preset, format });
      expect(response.statusCode, response.body).toBe(200);
      const data = response.json<{ data: ExportDto }>().data;
      expect(data.fileName.endsWith(`.${ext}`)).toBe(true);
      const file = await fetchSigned(data.url);
      expect(magic(file.rawPayload)).toBe(format);
      expect(file.headers['content-type']).toBe(data.contentType);
      if (size) expect([data.width, data.height]).toEqual(size);
    }
  }, 90_000);

  it("refuses bad input with 400, another seller's generation with 404 and an unfinished output with 409", async () => {
    const pending = await new GenerationsRepository(testApp.deps.db).create({
      userId: seller.userId,
      imageId: null,
      kind: 'manual',
      stage: null,
      request: {},
      slots: [{ index: 0, name: 'Marble', prompt: null, backgroundType: 'marble' }],
    });
    const cases: [Session, Record<string, unknown>, number, string?][] = [
      [seller, { generationId, outputIndex: 0, preset: 'ebay', format: 'jpeg' }, 400],
      [seller, { generationId, outputIndex: 0, preset: 'amazon', format: 'gif' }, 400],
      [seller, { generationId, outputIndex: 0, preset: 'amazon', format: 'webp' }, 400, 'format_not_allowed'],
      [seller, { generationId, outputIndex: 0, preset: 'transparent', format: 'jpeg' }, 400, 'format_not_allowed'],
      [seller, { generationId, preset: 'amazon', format: 'jpeg' }, 400],
      [other, { generationId, outputIndex: 0, preset: 'amazon', format: 'jpeg' }, 404, 'generation_not_found'],
      [seller, { generationId, outputIndex: 3, preset: 'amazon', format: 'jpeg' }, 404, 'output_not_found'],
      [
        seller,
        { generationId: pending.id, outputIndex: 0, preset: 'amazon', format: 'jpeg' },
        409,
        'output_not_finished',
      ],
    ];
    for (const [session, payload, status, code] of cases) {
      const response = await post(session, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      if (code) expect(response.json().code).toBe(code);
    }
    const download = await testApp.app.inject({
      method: 'GET',
      url: `/api/exports/download?generationId=${generationId}&outputIndex=0&preset=amazon&format=jpeg`,
      headers: other.auth,
    });
    expect(download.statusCode).toBe(404);
    expect(
      (
        await testApp.app.inject({
          method: 'POST',
          url: '/api/exports',
          payload: { generationId, outputIndex: 0, preset: 'amazon', format: 'jpeg' },
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('GET /api/generations/:id/compliance', () => {
  it('fails the square marble shot for Amazon with a one-click fix, and passes its Amazon export', async () => {
    const shot = await compliance(seller, 'preset=amazon&output=0');
    expect(shot.statusCode, shot.body).toBe(200);
    const report = shot.json<{ data: ComplianceReportDto }>().data;
    expect(report).toMatchObject({
      generationId,
      outputIndex: 0,
      preset: 'amazon',
      subject: { kind: 'output' },
      passed: false,
    });
    const byId = Object.fromEntries(report.lines.map((line) => [line.id, line]));
    expect(byId.background).toMatchObject({
      status: 'fail',
      label: 'Background is not pure white',
      target: '100% of the border should be #FFFFFF',
      fix: { preset: 'amazon', label: 'Make the background white' },
    });
    // The marble scene is a lifestyle shot: the report says such shots are for secondary images.
    expect(report.note).toMatch(/^Lifestyle shots like this one are for secondary images/);
    expect(byId.size).toMatchObject({ status: 'fail', measured: '1024 × 1024 px' });
    // The local engine's scene is rendered again as the reference: the product is found and nothing was added.
    expect(byId['not-cut']!.status).toBe('pass');
    expect(byId['no-overlay']!.status).toBe('pass');

    const exported = await compliance(seller, 'preset=amazon&output=0&exportFormat=jpeg');
    expect(exported.statusCode, exported.body).toBe(200);
    const passed = exported.json<{ data: ComplianceReportDto }>().data;
    expect(passed.subject).toEqual({ kind: 'export', preset: 'amazon', format: 'jpeg' });
    expect(passed.lines.map((line) => [line.id, line.status])).toEqual([
      ['background', 'pass'],
      ['fill', 'pass'],
      ['size', 'pass'],
      ['not-cut', 'pass'],
      ['no-overlay', 'pass'],
      ['no-tinted-band', 'pass'],
    ]);
    expect(passed.passed).toBe(true);
    expect(passed.note).toBeNull();
  }, 90_000);

  it('answers 400 for an unknown preset, 404 across sellers, 409 for an export not made yet', async () => {
    expect((await compliance(seller, 'preset=ebay')).statusCode).toBe(400);
    expect((await compliance(seller, 'preset=amazon&exportFormat=webp')).statusCode).toBe(400);
    expect((await compliance(other, 'preset=amazon')).statusCode).toBe(404);
    expect((await compliance(seller, 'preset=amazon', 'not-a-generation')).statusCode).toBe(404);
    const notMade = await compliance(seller, 'preset=amazon&exportFormat=png');
    expect(notMade.statusCode).toBe(409);
  });

  it('is in the OpenAPI document with its response schema, as is POST /api/exports', async () => {
    const docs = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    }>();
    expect(docs.paths['/api/exports']!.post!.responses['200']).toHaveProperty('content');
    expect(docs.paths['/api/generations/{id}/compliance']!.get!.responses['200']).toHaveProperty('content');
  });
});
