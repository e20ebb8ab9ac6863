import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { GenerationListResponse, ImageListResponse } from '@prodshot/contracts';
import { SubscriptionsRepository } from '@prodshot/db';
import { historyRows, type HistoryRows } from '../../history-rows.test-support.js';
import { signIn, type Session } from '../../seller-client.test-support.js';
import { MALFORMED_CURSOR_MESSAGE } from '../../services/list-cursor.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;
let rows: HistoryRows;

beforeAll(async () => {
  testApp = await buildTestApp(stack);
  rows = historyRows(testApp.deps.db);
});
afterAll(() => testApp.close());

async function get<T>(session: Session, url: string): Promise<T> {
  const response = await testApp.app.inject({ method: 'GET', url, headers: session.auth });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json<T>();
}

async function status(session: Session, url: string): Promise<number> {
  return (await testApp.app.inject({ method: 'GET', url, headers: session.auth })).statusCode;
}

/** Follows nextCursor from the first page to the last; every page's items, in order. */
async function walk<T>(session: Session, path: string, limit: number): Promise<{ pages: T[][]; items: T[] }> {
  const pages: T[][] = [];
  let cursor: string | null = null;
  do {
    const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page: { data: T[]; nextCursor: string | null } = await get(session, `${path}${query}`);
    pages.push(page.data);
    cursor = page.nextCursor;
    expect(pages.length).toBeLessThan(100);
  } while (cursor);
  return { pages, items: pages.flat() };
}

describe('the uploads list', () => {
  it('reaches every one of more than 500 uploads, each once, newest first, ties broken by id', async () => {
    const seller = await signIn(testApp, `uploads-${randomUUID()}@example.com`);
    const ids = await rows.addUploads(seller.userId, 501);
    // Whole seconds: many uploads share one time, which the cursor must still step through.
    await testApp.deps.db
      .updateTable('images')
      .set({ created_at: sql`date_trunc('second', created_at) - make_interval(secs => (ascii(file_id) % 3))` })
      .where('user_id', '=', seller.userId)
      .execute();

    const first = await get<ImageListResponse>(seller, '/api/images');
    expect(first.data).toHaveLength(50);
    expect(first.nextCursor).toEqual(expect.any(String));
    expect(first.total).toBe(501);

    const { pages, items } = await walk<ImageListResponse['data'][number]>(seller, '/api/images', 100);
    expect(pages.map((page) => page.length)).toEqual([100, 100, 100, 100, 100, 1]);
    expect(new Set(items.map((item) => item._id)).size).toBe(501);
    expect(new Set(items.map((item) => item._id))).toEqual(new Set(ids));
    const expected = await testApp.deps.db
      .selectFrom('images')
      .select('id')
      .where('user_id', '=', seller.userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    expect(items.map((item) => item._id)).toEqual(expected.map((row) => row.id));
    expect(items[0]).toMatchObject({
      fileId: expect.any(String),
      name: expect.any(String),
      originalImage: { url: expect.any(String), thumbnailUrl: expect.any(String), previewUrl: expect.any(String) },
    });
  });
});

describe('the generations list', () => {
  it("reaches every one of more than 100 outputs, six at a time by default (the dashboard's)", async () => {
    const seller = await signIn(testApp, `outputs-${randomUUID()}@example.com`);
    const outputIds: string[] = [];
    for (let n = 0; n < 26; n += 1) outputIds.push(...(await rows.addGeneration(seller.userId, 4)).outputIds);

    const dashboard = await get<GenerationListResponse>(seller, '/api/images/recent/generations?limit=6');
    expect(dashboard.data).toHaveLength(6);
    expect(dashboard.total).toBe(104);
    expect((await get<GenerationListResponse>(seller, '/api/images/recent/generations')).data).toHaveLength(6);

    const { pages, items } = await walk<GenerationListResponse['data'][number]>(
      seller,
      '/api/images/recent/generations',
      100,
    );
    expect(pages.map((page) => page.length)).toEqual([100, 4]);
    expect(new Set(items.map((item) => item.id))).toEqual(new Set(outputIds));
    expect(items.map((item) => item.id)).toHaveLength(104);
    const times = items.map((item) => Date.parse(item.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(items[0]).toMatchObject({
      generationId: expect.any(String),
      imageUrl: expect.any(String),
      thumbnailUrl: expect.any(String),
      previewUrl: expect.any(String),
    });
  });
});

describe('list paging input', () => {
  it('refuses a malformed cursor and a page size out of range with 400 and a plain message', async () => {
    const seller = await signIn(testApp, `input-${randomUUID()}@example.com`);
    const forged = Buffer.from('123:not-a-row').toString('base64url');
    for (const path of ['/api/images', '/api/images/recent/generations']) {
      for (const cursor of ['garbage!', forged, 'AAAA']) {
        const response = await testApp.app.inject({
          method: 'GET',
          url: `${path}?cursor=${encodeURIComponent(cursor)}`,
          headers: seller.auth,
        });
        expect(response.statusCode, `${path} ${cursor}`).toBe(400);
        expect(response.json()).toMatchObject({ message: MALFORMED_CURSOR_MESSAGE, code: 'invalid_cursor' });
      }
      for (const limit of ['0', '101', 'many']) {
        const response = await testApp.app.inject({
          method: 'GET',
          url: `${path}?limit=${limit}`,
          headers: seller.auth,
        });
        expect(response.statusCode, `${path} limit=${limit}`).toBe(400);
        expect(response.json().message).toContain('limit');
      }
    }
  });

  it("pages only the caller's own items with another user's cursor", async () => {
    const alice = await signIn(testApp, `alice-${randomUUID()}@example.com`);
    const bob = await signIn(testApp, `bob-${randomUUID()}@example.com`);
    const aliceUploads = await rows.addUploads(alice.userId, 4);
    const bobUploads = await rows.addUploads(bob.userId, 3);
    const aliceOutputs = (await rows.addGeneration(alice.userId, 4)).outputIds;
    const bobOutputs = (await rows.addGeneration(bob.userId, 2)).outputIds;

    const aliceUploadPage = await get<ImageListResponse>(alice, '/api/images?limit=1');
    const bobWithAliceCursor = await get<ImageListResponse>(
      bob,
      `/api/images?limit=100&cursor=${aliceUploadPage.nextCursor}`,
    );
    expect(bobWithAliceCursor.data.map((image) => image._id).every((id) => bobUploads.includes(id))).toBe(true);
    expect(bobWithAliceCursor.data.some((image) => aliceUploads.includes(image._id))).toBe(false);

    const aliceOutputPage = await get<GenerationListResponse>(alice, '/api/images/recent/generations?limit=1');
    const bobOutputs2 = await get<GenerationListResponse>(
      bob,
      `/api/images/recent/generations?limit=100&cursor=${aliceOutputPage.nextCursor}`,
    );
    expect(bobOutputs2.data.every((output) => bobOutputs.includes(output.id))).toBe(true);
    expect(bobOutputs2.data.some((output) => aliceOutputs.includes(output.id))).toBe(false);
  });
});

/**
 * What each plan keeps (the lists, the reads by id, the plan in force) is
 * services/generations/history-by-plan.int.test.ts; here, that every route answers an expired item 404.
 */
describe('history by plan', () => {
  it("answers 404 on the upload, generation and upload file routes for an item past the plan's history", async () => {
    const starter = await signIn(testApp, `starter-${randomUUID()}@example.com`);
    await new SubscriptionsRepository(testApp.deps.db).activate(starter.userId, {
      plan: 'starter',
      status: 'active',
      provider: 'local',
    });
    const [imageId] = await rows.addUploads(starter.userId, 1);
    const { id: generationId } = await rows.addGeneration(starter.userId, 1);
    expect(await status(starter, `/api/images/${imageId}`)).toBe(200);
    expect(await status(starter, `/api/generations/${generationId}`)).toBe(200);
    await rows.age('images', [imageId!], 31);
    await rows.age('generations', [generationId], 31);
    expect(await status(starter, `/api/images/${imageId}`)).toBe(404);
    expect(await status(starter, `/api/generations/${generationId}`)).toBe(404);
    expect(await status(starter, `/uploads/${imageId}`)).toBe(404);
  });
});

describe('the OpenAPI document', () => {
  it('documents the lists’ limit and cursor and their nextCursor', async () => {
    const document = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<
        string,
        {
          get: {
            parameters: { name: string; in: string }[];
            responses: Record<string, { content: Record<string, { schema: { properties: Record<string, unknown> } }> }>;
          };
        }
      >;
    }>();
    for (const path of ['/api/images', '/api/images/recent/generations']) {
      const operation = document.paths[path]!.get;
      expect(
        operation.parameters
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) => parameter.name)
          .sort(),
        path,
      ).toEqual(['cursor', 'limit']);
      expect(
        Object.keys(operation.responses['200']!.content['application/json']!.schema.properties).sort(),
        path,
      ).toEqual(['data', 'nextCursor', 'total']);
    }
  });
});
