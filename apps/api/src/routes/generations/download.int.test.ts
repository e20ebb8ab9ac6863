import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { shotDownloadPath, type GenerationDto, type GenerationListItem } from '@prodshot/contracts';
import { GenerationsRepository } from '@prodshot/db';
import { corpusFile } from '@prodshot/fixtures';
import { DOWNLOAD_COPY_MAX_BYTES, LocalImageModel, makeDownloadCopy } from '@prodshot/imaging';
import { downloadCopyKey, generationOutputKey } from '@prodshot/storage';
import { signIn, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';
import { storeEnvs } from '../stored-files.test-support.js';

const stack = inject('stack');

/** A Growth-size shot as the engine makes it: a sneaker on marble, 4096 px square, 19 MB as PNG. */
let shot: Buffer;
let copy: Buffer;
beforeAll(async () => {
  const photo = await readFile(corpusFile('products', 'saleor-pauls-blanace-420-1.png'));
  shot = (
    await new LocalImageModel().generate({ image: photo, template: 'marble', size: 4096, format: 'png', seed: 1 })
  ).image;
  copy = (await makeDownloadCopy(shot)).data;
}, 120_000);

describe.each(storeEnvs(stack))('downloading a shot through the API on the $driver store', ({ driver, env }) => {
  let testApp: TestApp;
  let owner: Session;
  let other: Session;
  let generationId: string;

  /** A manual generation of two slots whose second is done, as a worker leaves it: its PNG and its JPEG copy stored, both sizes recorded. */
  beforeAll(async () => {
    testApp = await buildTestApp(stack, { env });
    expect(testApp.deps.store.driver).toBe(driver);
    owner = await signIn(testApp, `download-owner-${driver}@example.com`);
    other = await signIn(testApp, `download-other-${driver}@example.com`);
    const generations = new GenerationsRepository(testApp.deps.db);
    const slot = (index: number) => ({ index, name: 'Marble', prompt: null, backgroundType: 'marble' });
    const row = await generations.create({
      userId: owner.userId,
      imageId: null,
      kind: 'manual',
      stage: null,
      request: {},
      slots: [slot(0), slot(1)],
    });
    generationId = row.id;
    const key = generationOutputKey(owner.userId, generationId, 1, 'image/png');
    const copyKey = downloadCopyKey(key, 'image/jpeg');
    await testApp.deps.store.put(key, shot, 'image/png');
    await testApp.deps.store.put(copyKey, copy, 'image/jpeg');
    await generations.markStyleRunning(generationId, 1);
    await generations.completeStyle(generationId, 1, key, 1, {
      resultBytes: shot.length,
      download: { key: copyKey, bytes: copy.length },
    });
  }, 60_000);
  afterAll(() => testApp.close());

  it('saves a full-size JPEG within 4 MB by default, named for saving, where recent generations point', async () => {
    const recent = await testApp.app.inject({
      method: 'GET',
      url: '/api/images/recent/generations',
      headers: owner.auth,
    });
    const [item] = recent.json<{ data: GenerationListItem[] }>().data;
    expect(item).toMatchObject({ generationId, index: 1, name: 'Marble' });
    const response = await testApp.app.inject({ method: 'GET', url: shotDownloadPath(item!), headers: owner.auth });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="generation-${generationId}-2.jpg"; filename*=UTF-8''generation-${generationId}-2.jpg`,
    );
    expect(response.headers['content-length']).toBe(String(copy.length));
    expect(response.rawPayload.length).toBeLessThanOrEqual(DOWNLOAD_COPY_MAX_BYTES);
    expect(await sharp(response.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 4096, height: 4096 });
  });

  it('saves the original PNG as the second choice, and names both files with their sizes in the lists and the generation', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: shotDownloadPath({ generationId, index: 1 }, 'original'),
      headers: owner.auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['content-disposition']).toContain(`filename="generation-${generationId}-2.png"`);
    expect(response.rawPayload.equals(shot)).toBe(true);

    const files = {
      download: { contentType: 'image/jpeg', bytes: copy.length },
      original: { contentType: 'image/png', bytes: shot.length },
    };
    const recent = await testApp.app.inject({
      method: 'GET',
      url: '/api/images/recent/generations',
      headers: owner.auth,
    });
    expect(recent.json<{ data: GenerationListItem[] }>().data[0]!.files).toEqual(files);
    const generation = await testApp.app.inject({
      method: 'GET',
      url: `/api/generations/${generationId}`,
      headers: owner.auth,
    });
    expect(generation.json<{ data: GenerationDto }>().data.styles.map((style) => style.files)).toEqual([null, files]);
  });

  it("answers 404 for another user's shot, a slot not done and a slot that does not exist; 400 for an index that is no slot's or a file that is no choice; 401 without a token", async () => {
    const url = (index: number | string, id = generationId, query = '') =>
      `/api/generations/${id}/styles/${index}/download${query}`;
    const cases: [string, Record<string, string>, number][] = [
      [url(1), other.auth, 404],
      [url(1, generationId, '?file=original'), other.auth, 404],
      [url(0), owner.auth, 404],
      [url(5), owner.auth, 404],
      [url(1, 'not-a-generation'), owner.auth, 404],
      [url('one'), owner.auth, 400],
      [url(-1), owner.auth, 400],
      [url(1, generationId, '?file=raw'), owner.auth, 400],
      [url(1), {}, 401],
    ];
    for (const [path, headers, status] of cases) {
      const response = await testApp.app.inject({ method: 'GET', url: path, headers });
      expect(response.statusCode, `${path} ${JSON.stringify(headers)}`).toBe(status);
      expect(response.headers['content-type']).toContain('application/json');
    }
  });
});

describe('a shot stored before download copies', () => {
  let testApp: TestApp;
  let owner: Session;
  afterAll(() => testApp.close());

  it('downloads as its original, which the lists name as the only file, its size unknown', async () => {
    testApp = await buildTestApp(stack);
    owner = await signIn(testApp, 'download-old-shot@example.com');
    const generations = new GenerationsRepository(testApp.deps.db);
    const { id } = await generations.create({
      userId: owner.userId,
      imageId: null,
      kind: 'manual',
      stage: null,
      request: {},
      slots: [{ index: 0, name: 'Studio', prompt: null, backgroundType: 'studio' }],
    });
    const png = await sharp({ create: { width: 200, height: 150, channels: 3, background: '#c0ffee' } })
      .png()
      .toBuffer();
    const key = generationOutputKey(owner.userId, id, 0, 'image/png');
    await testApp.deps.store.put(key, png, 'image/png');
    await generations.markStyleRunning(id, 0);
    await generations.completeStyle(id, 0, key);
    const response = await testApp.app.inject({
      method: 'GET',
      url: shotDownloadPath({ generationId: id, index: 0 }),
      headers: owner.auth,
    });
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.rawPayload.equals(png)).toBe(true);
    const recent = await testApp.app.inject({
      method: 'GET',
      url: '/api/images/recent/generations',
      headers: owner.auth,
    });
    expect(recent.json<{ data: GenerationListItem[] }>().data[0]!.files).toEqual({
      download: { contentType: 'image/png', bytes: null },
      original: null,
    });
  });
});
