import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { JobPayloads } from '@prodshot/contracts';
import { exportKey } from '@prodshot/storage';
import { buildWorkerDeps, dispatch, finishedShot, jobOf, type TestWorkerDeps } from '../worker-deps.test-support.js';
import { exportShot } from './export-shot.js';

const stack = inject('stack');
let t: TestWorkerDeps;
beforeAll(async () => {
  t = await buildWorkerDeps(stack);
});
afterAll(() => t.close());

function amazonJpeg(userId: string, generationId: string, outputIndex = 0): JobPayloads['export-shot'] {
  return {
    userId,
    generationId,
    outputIndex,
    preset: 'amazon',
    format: 'jpeg',
    key: exportKey(userId, generationId, outputIndex, 'amazon', 'image/jpeg'),
  };
}

describe('export-shot', () => {
  it('renders the preset’s file under its export key and moves no credit', async () => {
    const { userId, generationId } = await finishedShot(t);
    const ledger = await t.ledger(generationId);
    const payload = amazonJpeg(userId, generationId);

    expect(await exportShot.run(jobOf('export-shot', payload), t.deps)).toEqual({
      key: payload.key,
      width: 2000,
      height: 2000,
    });

    expect(await sharp(await t.deps.store.get(payload.key)).metadata()).toMatchObject({
      format: 'jpeg',
      width: 2000,
      height: 2000,
    });
    expect(await t.ledger(generationId)).toEqual(ledger);
  });

  it('answers an export asked again from the file stored the first time', async () => {
    const { userId, generationId } = await finishedShot(t);
    const payload = amazonJpeg(userId, generationId);
    // Stands in for the first run's file: a second render would overwrite it.
    await t.deps.store.put(
      payload.key,
      await sharp({ create: { width: 20, height: 10, channels: 3, background: '#fff' } })
        .jpeg()
        .toBuffer(),
      'image/jpeg',
    );

    expect(await exportShot.run(jobOf('export-shot', payload), t.deps)).toEqual({
      key: payload.key,
      width: 20,
      height: 10,
    });
  });

  it('fails for good, without retrying, for an output that is not finished', async () => {
    const userId = await t.newUser(1);
    const generationId = await t.newGeneration(userId, 1, 1, { kind: 'manual' });
    const payload = amazonJpeg(userId, generationId);

    await expect(dispatch(t.deps, 'export-shot', payload, { attemptsMade: 0, attempts: 3 })).rejects.toMatchObject({
      name: 'UnrecoverableError',
      message: 'This output is not finished',
    });

    expect(await t.deps.store.stat(payload.key)).toBeNull();
    expect(await t.ledger(generationId)).toEqual([{ kind: 'reserve', credits: -1 }]);
  });
});
