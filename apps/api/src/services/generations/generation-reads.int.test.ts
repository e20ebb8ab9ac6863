import { describe, expect, it } from 'vitest';
import { jobIds } from '@prodshot/queue';
import { refusal, useTestServices } from '../service-deps.test-support.js';

const t = useTestServices();
const log = { warn: () => {} } as never;

describe('GenerationReads: where a generation stands, a shot file and recent outputs, without HTTP', () => {
  it("names a finished shot's file for saving, and answers 404 for a shot not finished and for another seller's", async () => {
    const userId = await t.newUser(0);
    const { imageId } = await t.newUpload(userId);
    const id = await t.newGeneration(userId, imageId, 'manual', ['complete', 'queued']);
    expect(await t.services.generations.shotFile(userId, id, 0, 'original')).toEqual({
      key: `results/${id}-0.png`,
      fileName: `generation-${id}-1.png`,
    });
    const unfinished = await refusal(t.services.generations.shotFile(userId, id, 1, undefined));
    expect(unfinished).toMatchObject({ statusCode: 404, code: 'shot_not_found' });
    const stranger = await t.newUser(0);
    const theirs = await refusal(t.services.generations.shotFile(stranger, id, 0, undefined));
    expect(theirs).toMatchObject({ statusCode: 404, code: 'generation_not_found' });
    expect(await refusal(t.services.generations.generation(stranger, id, log))).toMatchObject({ statusCode: 404 });
  });

  it('lists finished outputs newest first and asks once for the renditions of those stored without', async () => {
    const userId = await t.newUser(0);
    const { imageId } = await t.newUpload(userId);
    const older = await t.newGeneration(userId, imageId, 'manual', ['complete']);
    const newer = await t.newGeneration(userId, imageId, 'manual', ['complete', 'failed']);
    // Stored before renditions existed.
    await t.deps.db
      .updateTable('generation_styles')
      .set({ renditions: false })
      .where('generation_id', '=', newer)
      .execute();
    const page = await t.services.generations.recentOutputs(userId, { limit: 10 }, log);
    expect(page.data.map((output) => output.generationId)).toEqual([newer, older]);
    expect(page.total).toBe(2);
    const styleId = page.data[0]!.id;
    expect(await t.queued('make-renditions', jobIds.renditions(styleId))).toMatchObject({
      data: { key: `results/${newer}-0.png`, owner: { kind: 'style', id: styleId } },
    });
    expect(await t.queued('make-renditions', jobIds.renditions(page.data[1]!.id))).toBeUndefined();
  });
});
