import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { shotDownloadPath, type GenerationListItem } from '@prodshot/contracts';
import { GenerationsRepository } from '@prodshot/db';
import { generationOutputKey } from '@prodshot/storage';
import { signIn, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';
import { storeEnvs } from '../stored-files.test-support.js';

const stack = inject('stack');

describe.each(storeEnvs(stack))('downloading a shot through the API on the $driver store', ({ driver, env }) => {
  let testApp: TestApp;
  let owner: Session;
  let other: Session;
  let generationId: string;
  let shot: Buffer;

  /** A manual generation of two slots whose second is done, as a worker leaves it: its PNG stored, the slot complete. */
  beforeAll(async () => {
    testApp = await buildTestApp(stack, { env });
    expect(testApp.deps.store.driver).toBe(driver);
    owner = await signIn(testApp, `download-owner-${driver}@example.com`);
    other = await signIn(testApp, `download-other-${driver}@example.com`);
    const generations = new GenerationsRepository(testApp.deps.db);
    const slot = (index: number) => ({ index, name: 'Marble', prompt: null, backgroundType: 'marble' });
    const row = await generations.create({ userId: owner.userId, imageId: null, kind: 'manual', stage: null, request: {}, slots: [slot(0), slot(1)] });
    generationId = row.id;
    shot = await sharp({ create: { width: 200, height: 150, channels: 3, background: '#c0ffee' } })
      .png()
      .toBuffer();
    const key = generationOutputKey(owner.userId, generationId, 1, 'image/png');
    await testApp.deps.store.put(key, shot, 'image/png');
    await generations.markStyleRunning(generationId, 1);
    await generations.completeStyle(generationId, 1, key);
  });
  afterAll(() => testApp.close());

  it('streams the full file from the app\'s origin with a Content-Disposition name, where recent generations point', async () => {
    const recent = await testApp.app.inject({ method: 'GET', url: '/api/images/recent/generations', headers: owner.auth });
    const [item] = recent.json<{ data: GenerationListItem[] }>().data;
    expect(item).toMatchObject({ generationId, index: 1 });
    const response = await testApp.app.inject({ method: 'GET', url: shotDownloadPath(item!), headers: owner.auth });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="generation-${generationId}-2.png"; filename*=UTF-8''generation-${generationId}-2.png`);
    expect(response.headers['content-length']).toBe(String(shot.length));
    expect(response.rawPayload.equals(shot)).toBe(true);
  });

  it("answers 404 for another user's shot, a slot not done and a slot that does not exist; 400 for an index that is no slot's; 401 without a token", async () => {
    const url = (index: number | string, id = generationId) => `/api/generations/${id}/styles/${index}/download`;
    const cases: [string, Record<string, string>, number][] = [
      [url(1), other.auth, 404],
      [url(0), owner.auth, 404],
      [url(5), owner.auth, 404],
      [url(1, 'not-a-generation'), owner.auth, 404],
      [url('one'), owner.auth, 400],
      [url(-1), owner.auth, 400],
      [url(1), {}, 401],
    ];
    for (const [path, headers, status] of cases) {
      const response = await testApp.app.inject({ method: 'GET', url: path, headers });
      expect(response.statusCode, `${path} ${JSON.stringify(headers)}`).toBe(status);
      expect(response.headers['content-type']).toContain('application/json');
    }
  });
});
