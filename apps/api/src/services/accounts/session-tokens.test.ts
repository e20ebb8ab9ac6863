import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCreateSessionKey, SESSION_KEY_FILE } from './session-tokens.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('loadOrCreateSessionKey', () => {
  it('gives every concurrent first caller the same key and leaves only the key file behind', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'prodshot-keys-'));
    const keys = await Promise.all(Array.from({ length: 4 }, () => loadOrCreateSessionKey(dir!)));
    expect(new Set(keys.map((k) => k.publicKeyPem)).size).toBe(1);
    expect(await readdir(dir)).toEqual([SESSION_KEY_FILE]);
    expect((await loadOrCreateSessionKey(dir)).publicKeyPem).toBe(keys[0]!.publicKeyPem);
  });
});
