import type { Job } from 'bullmq';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { JobPayloads } from '@prodshot/contracts';
import { ImagesRepository } from '@prodshot/db';
import { generationOutputKey, renditionKey } from '@prodshot/storage';
import { buildWorkerDeps, type TestWorkerDeps } from '../worker-deps.test-support.js';
import { makeRenditions } from './make-renditions.js';

const stack = inject('stack');
let t: TestWorkerDeps;
beforeAll(async () => {
  t = await buildWorkerDeps(stack);
});
afterAll(() => t.close());

function run(payload: JobPayloads['make-renditions']) {
  return makeRenditions.run({ data: payload } as Job<JobPayloads['make-renditions']>, t.deps);
}

describe('make-renditions', () => {
  it('writes the renditions of an output stored without them and records them on its row', async () => {
    const userId = await t.newUser(1);
    const generationId = await t.newGeneration(userId, 1, 1);
    const key = generationOutputKey(userId, generationId, 0, 'image/png');
    await t.deps.store.put(
      key,
      await sharp({ create: { width: 3000, height: 1000, channels: 3, background: '#345' } })
        .png()
        .toBuffer(),
      'image/png',
    );
    await t.deps.generations.completeStyle(generationId, 0, key);
    await t.deps.db
      .updateTable('generation_styles')
      .set({ renditions: false })
      .where('generation_id', '=', generationId)
      .execute();
    const [style] = await t.deps.generations.styles(generationId);

    expect(await run({ key, owner: { kind: 'style', id: style!.id } })).toEqual({ made: true });
    expect(await sharp(await t.deps.store.get(renditionKey(key, 'thumbnail'))).metadata()).toMatchObject({
      width: 512,
      height: 171,
    });
    expect(await sharp(await t.deps.store.get(renditionKey(key, 'preview'))).metadata()).toMatchObject({
      width: 1280,
      height: 427,
    });
    expect((await t.deps.generations.styles(generationId))[0]).toMatchObject({ renditions: true });
  });

  it('records the renditions of an upload on its image row', async () => {
    const userId = await t.newUser(0);
    const upload = await t.newUpload(userId);
    const images = new ImagesRepository(t.deps.db);

    expect(await run({ key: upload.sourceKey, owner: { kind: 'image', id: upload.imageId } })).toEqual({ made: true });
    expect(await t.deps.store.stat(renditionKey(upload.sourceKey, 'preview'))).not.toBeNull();
    expect(await images.findOwned(userId, upload.imageId)).toMatchObject({ renditions: true });
  });

  it('does nothing, and does not fail, for an image deleted before its turn', async () => {
    const key = generationOutputKey('gone-user', 'gone-generation', 0, 'image/png');
    expect(await run({ key, owner: { kind: 'style', id: '00000000-0000-0000-0000-000000000000' } })).toEqual({
      made: false,
    });
    expect(await t.deps.store.stat(renditionKey(key, 'thumbnail'))).toBeNull();
  });
});
