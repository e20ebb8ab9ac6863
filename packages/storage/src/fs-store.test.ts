import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOrCreateSecret } from './create-store.js';
import { FsObjectStore } from './fs-store.js';
import { describeObjectStoreContract } from './object-store-contract.test-support.js';

async function makeFsStore(): Promise<FsObjectStore> {
  const dir = await mkdtemp(path.join(tmpdir(), 'prodshot-fs-store-'));
  const store = new FsObjectStore({
    dir,
    publicUrl: 'http://localhost:3000',
    signingSecret: 'x'.repeat(32),
    ttlSeconds: 60,
    windowSeconds: 3600,
  });
  await store.ensureReady();
  return store;
}

describeObjectStoreContract('filesystem driver', makeFsStore);

describe('filesystem driver', () => {
  it('signs paths served by the API files route', async () => {
    const store = await makeFsStore();
    expect(await store.signedUrl('users/u/uploads/f.png', 60)).toMatch(
      /^http:\/\/localhost:3000\/api\/files\/users\/u\/uploads\/f\.png\?expires=\d+&signature=[\w-]+$/,
    );
  });

  it('shares one signing secret between processes that boot together', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'prodshot-secret-')), 'keys', 'secret');
    const secrets = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateSecret(file)));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]!.length).toBeGreaterThanOrEqual(32);
  });
});
