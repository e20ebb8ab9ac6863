import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@prodshot/testing';
import { ApiKeysRepository } from './api-keys-repository.js';

const stack = inject('stack');
let test: TestDatabase;
let keys: ApiKeysRepository;
let alice: string;
let bob: string;

async function user(clerkId: string): Promise<string> {
  return (
    await test.db
      .insertInto('users')
      .values({ clerk_id: clerkId, email: `${clerkId}@example.com` })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

let serial = 0;
function newKey(userId: string, name: string) {
  serial += 1;
  return keys.create({ userId, name, scopes: ['read'], prefix: `psk_test_${serial}`, hash: `hash-${serial}` });
}

beforeAll(async () => {
  test = await createTestDatabase(stack);
  keys = new ApiKeysRepository(test.db);
  alice = await user('user_keys_alice');
  bob = await user('user_keys_bob');
});
afterAll(() => test.drop());

describe('ApiKeysRepository', () => {
  it('stores a key by its hash and finds it by that hash, with its scopes as given', async () => {
    const created = await keys.create({
      userId: alice,
      name: 'Shop sync',
      scopes: ['generate', 'read'],
      prefix: 'psk_test_ab12',
      hash: 'a'.repeat(64),
    });
    expect(created).toMatchObject({
      user_id: alice,
      name: 'Shop sync',
      scopes: ['generate', 'read'],
      prefix: 'psk_test_ab12',
      last_used_at: null,
      last_used_address: null,
      revoked_at: null,
    });
    expect((await keys.findActiveByHash('a'.repeat(64)))?.id).toBe(created.id);
    expect(await keys.findActiveByHash('b'.repeat(64))).toBeUndefined();
  });

  it('refuses an unknown scope, no scope, and a second key with the same hash', async () => {
    await expect(
      keys.create({ userId: alice, name: 'x', scopes: ['admin' as 'read'], prefix: 'p', hash: 'h-admin' }),
    ).rejects.toThrow(/check constraint/);
    await expect(keys.create({ userId: alice, name: 'x', scopes: [], prefix: 'p', hash: 'h-none' })).rejects.toThrow(
      /check constraint/,
    );
    await expect(
      keys.create({ userId: alice, name: 'x', scopes: ['read'], prefix: 'p', hash: 'a'.repeat(64) }),
    ).rejects.toThrow(/unique/);
  });

  it("lists a user's unrevoked keys newest first, never another user's", async () => {
    const first = await newKey(bob, 'first');
    const second = await newKey(bob, 'second');
    const third = await newKey(bob, 'third');
    await newKey(alice, 'alice');
    expect(await keys.revoke(bob, second.id)).toBe(true);
    expect((await keys.listActive(bob)).map((k) => k.name)).toEqual(['third', 'first']);
    expect((await keys.listActive(bob)).map((k) => k.id)).toEqual([third.id, first.id]);
  });

  it("revokes once, only the owner's key, and a revoked key is no longer found", async () => {
    const key = await newKey(bob, 'to revoke');
    expect(await keys.revoke(alice, key.id)).toBe(false);
    expect(await keys.findActiveByHash(key.hash)).toBeDefined();
    expect(await keys.revoke(bob, key.id)).toBe(true);
    expect(await keys.revoke(bob, key.id)).toBe(false);
    expect(await keys.findActiveByHash(key.hash)).toBeUndefined();
  });

  it('records a use and its address at most once per throttle window', async () => {
    const key = await newKey(alice, 'busy');
    expect(await keys.recordUse(key.id, '203.0.113.7', 60)).toBe(true);
    const used = await keys.findActiveByHash(key.hash);
    expect(used).toMatchObject({ last_used_address: '203.0.113.7' });
    expect(used!.last_used_at).toBeInstanceOf(Date);
    expect(await keys.recordUse(key.id, '198.51.100.1', 60)).toBe(false);
    expect((await keys.findActiveByHash(key.hash))!.last_used_address).toBe('203.0.113.7');
    // A window already over: the next use is written.
    await test.db
      .updateTable('api_keys')
      .set({ last_used_at: new Date(Date.now() - 61_000) })
      .where('id', '=', key.id)
      .execute();
    expect(await keys.recordUse(key.id, '198.51.100.1', 60)).toBe(true);
    expect((await keys.findActiveByHash(key.hash))!.last_used_address).toBe('198.51.100.1');
  });
});
