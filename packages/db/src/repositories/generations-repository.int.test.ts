import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@prodshot/testing';
import { GenerationsRepository } from './generations-repository.js';

const stack = inject('stack');
let test: TestDatabase;
let generations: GenerationsRepository;
let userId: string;

beforeAll(async () => {
  test = await createTestDatabase(stack);
  generations = new GenerationsRepository(test.db);
  userId = (
    await test.db
      .insertInto('users')
      .values({ clerk_id: 'user_generations', email: 'g@example.com' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(() => test.drop());

const slot = (index: number, prompt: string | null = null) => ({
  index,
  name: `Style ${index}`,
  prompt,
  backgroundType: prompt ? 'custom' : 'studio',
});

describe('GenerationsRepository', () => {
  it('opens a generation with its slots in order, or with none', async () => {
    const opened = await generations.create({
      userId,
      imageId: null,
      kind: 'manual',
      stage: null,
      request: { count: 2 },
      slots: [slot(0), slot(1, 'Beach, "sunset"')],
    });
    const found = await generations.findOwned(userId, opened.id);
    expect(found).toMatchObject({ status: 'queued', request: { count: 2 } });
    expect(found!.styles.map((s) => [s.index, s.name, s.prompt, s.background_type, s.status])).toEqual([
      [0, 'Style 0', null, 'studio', 'queued'],
      [1, 'Style 1', 'Beach, "sunset"', 'custom', 'queued'],
    ]);
    const empty = await generations.create({
      userId,
      imageId: null,
      kind: 'smart',
      stage: 'analysing',
      request: {},
      slots: [],
    });
    expect(await generations.styles(empty.id)).toEqual([]);
  });

  it('moves a slot to running once, taking a queued generation with it, and never a settled slot', async () => {
    const { id } = await generations.create({
      userId,
      imageId: null,
      kind: 'smart',
      stage: null,
      request: {},
      slots: [slot(0), slot(1)],
    });
    expect(await generations.markStyleRunning(id, 0)).toBe(true);
    expect((await generations.find(id))!.status).toBe('running');
    expect(await generations.markStyleRunning(id, 1)).toBe(true);
    expect(await generations.completeStyle(id, 0, 'users/x/0.png')).toBe(true);
    expect(await generations.markStyleRunning(id, 0)).toBe(false);
    expect((await generations.styles(id)).map((s) => s.status)).toEqual(['complete', 'running']);
    expect(await generations.markStyleRunning(id, 7)).toBe(false);
  });
});

describe('GenerationsRepository on settled generations', () => {
  it('adds no slot to a settled generation (a late fan-out), and opens one a seller pays for again', async () => {
    const { id } = await generations.create({
      userId,
      imageId: null,
      kind: 'smart',
      stage: null,
      request: {},
      slots: [],
    });
    expect(await generations.addSlots(id, [slot(0)])).toBe(true);
    expect(await generations.addSlots(id, [slot(0)])).toBe(true);
    await generations.failOpenStyles(id, 'failed for good');
    expect(await generations.settleIfDone(id)).toBe('failed');
    expect(await generations.addSlots(id, [slot(1), slot(2)])).toBe(false);
    expect((await generations.styles(id)).map((s) => s.index)).toEqual([0]);

    await generations.reopenWithSlot(id, slot(1, 'a beach'));
    expect(await generations.find(id)).toMatchObject({ status: 'running', completed_at: null, error: null });
    expect((await generations.styles(id)).map((s) => [s.index, s.status])).toEqual([
      [0, 'failed'],
      [1, 'queued'],
    ]);
  });
});
