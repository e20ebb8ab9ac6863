import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GenerationsRepository } from '@prodshot/db';
import { productPhoto } from '../../faults/fault-support.test-support.js';
import { signIn, upload, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
const KEY_LIMIT = 20;
let testApp: TestApp;
let alice: Session;
let bob: Session;

beforeAll(async () => {
  testApp = await buildTestApp(stack, { env: { RATE_LIMIT_API_KEY_REQUESTS_PER_MINUTE: String(KEY_LIMIT) } });
  alice = await signIn(testApp, 'alice-keys@example.com');
  bob = await signIn(testApp, 'bob-keys@example.com');
}, 60_000);
afterAll(() => testApp.close());

async function createKey(session: Session, scopes: string[], name = 'Shop sync') {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/keys',
    headers: session.auth,
    payload: { name, scopes },
  });
  expect(response.statusCode, response.body).toBe(201);
  const created = response.json<{ id: string; key: string; prefix: string }>();
  return { ...created, auth: { authorization: `Bearer ${created.key}` } };
}

function call(
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) {
  return testApp.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

function openGeneration(userId: string) {
  return new GenerationsRepository(testApp.deps.db).create({
    userId,
    imageId: null,
    kind: 'manual',
    stage: null,
    request: {},
    slots: [],
  });
}

describe('API keys', () => {
  it('are answered once at creation, then listed newest first without the key or its hash', async () => {
    const first = await createKey(alice, ['read'], 'Nightly export');
    const second = await createKey(alice, ['generate', 'read'], 'Shop sync');
    expect(second.key).toMatch(/^psk_test_[0-9A-Za-z]{43}$/);
    expect(second.prefix).toBe(second.key.slice(0, 13));
    expect(second).toMatchObject({
      name: 'Shop sync',
      scopes: ['generate', 'read'],
      lastUsedAt: null,
      lastUsedAddress: null,
    });

    const list = await call('GET', '/api/keys', alice.auth);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((k: { id: string }) => k.id)).toEqual([second.id, first.id]);
    const hash = createHash('sha256').update(second.key).digest('hex');
    for (const secret of [second.key, first.key, hash]) expect(list.body).not.toContain(secret);
    expect(Object.keys(list.json().data[0]).sort()).toEqual([
      'createdAt',
      'id',
      'lastUsedAddress',
      'lastUsedAt',
      'name',
      'prefix',
      'scopes',
    ]);
    // Only the hash is stored.
    const row = await testApp.deps.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', second.id)
      .executeTakeFirstOrThrow();
    expect(row.hash).toBe(hash);
    expect(JSON.stringify(row)).not.toContain(second.key);
    // Another seller sees none of them.
    expect((await call('GET', '/api/keys', bob.auth)).json().data).toEqual([]);
  });

  it('refuses a blank name, no scopes, a repeated scope and an unknown one', async () => {
    for (const payload of [
      { name: '   ', scopes: ['read'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['read', 'read'] },
      { name: 'x', scopes: ['admin'] },
      { name: 'x'.repeat(61), scopes: ['read'] },
    ]) {
      const response = await call('POST', '/api/keys', alice.auth, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it("act as their owner: a key uploads and reads the owner's generations, and records its last use and address", async () => {
    const key = await createKey(alice, ['generate', 'read']);
    const uploaded = await upload(testApp, { ...alice, auth: key.auth }, await productPhoto(), 'by-key.jpg');
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const images = await call('GET', '/api/images', key.auth);
    expect(images.statusCode).toBe(200);
    expect(images.json().data.map((image: { _id: string }) => image._id)).toContain(uploaded.json()._id);

    const generation = await openGeneration(alice.userId);
    const read = await call('GET', `/api/generations/${generation.id}`, key.auth);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data).toMatchObject({ id: generation.id, status: 'queued' });

    const listed = (await call('GET', '/api/keys', alice.auth))
      .json()
      .data.find((k: { id: string }) => k.id === key.id);
    expect(listed.lastUsedAddress).toBe('127.0.0.1');
    expect(Date.now() - Date.parse(listed.lastUsedAt)).toBeLessThan(60_000);
  });

  it("answer 404 for another seller's generation and image, as the session does", async () => {
    const key = await createKey(alice, ['generate', 'read']);
    const bobsGeneration = await openGeneration(bob.userId);
    const bobsImage = await upload(testApp, bob, await productPhoto('#a26'), 'bob.jpg');
    expect(bobsImage.statusCode).toBe(201);
    for (const url of [`/api/generations/${bobsGeneration.id}`, `/api/images/${bobsImage.json()._id}`]) {
      expect((await call('GET', url, key.auth)).statusCode, url).toBe(404);
    }
    expect((await call('DELETE', `/api/images/${bobsImage.json()._id}`, key.auth)).statusCode).toBe(404);
  });

  it('stop working the moment they are revoked, and only their owner can revoke them', async () => {
    const key = await createKey(alice, ['read']);
    expect((await call('GET', '/api/images', key.auth)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/keys/${key.id}`, bob.auth)).statusCode).toBe(404);
    expect((await call('GET', '/api/images', key.auth)).statusCode).toBe(200);

    const revoked = await call('DELETE', `/api/keys/${key.id}`, alice.auth);
    expect(revoked.statusCode, revoked.body).toBe(200);
    const refused = await call('GET', '/api/images', key.auth);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({
      statusCode: 401,
      code: 'unauthorized',
      message: 'This API key is not valid or has been revoked.',
    });
    expect((await call('GET', '/api/keys', alice.auth)).json().data.map((k: { id: string }) => k.id)).not.toContain(
      key.id,
    );
    expect((await call('DELETE', `/api/keys/${key.id}`, alice.auth)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/keys/not-a-uuid', alice.auth)).statusCode).toBe(404);
    // A well-formed key nobody made.
    expect((await call('GET', '/api/images', { authorization: `Bearer psk_test_${'A'.repeat(43)}` })).statusCode).toBe(
      401,
    );
  });

  it('keep to their scopes: read-only keys cannot change anything, generate-only keys cannot read', async () => {
    const reader = await createKey(alice, ['read']);
    const post = await call('POST', '/api/images/enhance-prompt', reader.auth, { prompt: 'a beach' });
    expect(post.statusCode, post.body).toBe(403);
    expect(post.json()).toMatchObject({
      statusCode: 403,
      error: 'Forbidden',
      code: 'insufficient_scope',
      message: expect.stringContaining('"generate" scope'),
    });
    expect((await upload(testApp, { ...alice, auth: reader.auth }, await productPhoto())).statusCode).toBe(403);
    expect((await call('PATCH', '/api/users/profile', reader.auth, { name: 'Mallory' })).statusCode).toBe(403);

    const writer = await createKey(alice, ['generate']);
    const get = await call('GET', '/api/images', writer.auth);
    expect(get.statusCode).toBe(403);
    expect(get.json().message).toContain('"read" scope');
  });

  it('cannot manage keys or payments: those stay with the signed-in session', async () => {
    const key = await createKey(alice, ['generate', 'read']);
    const refusals = [
      await call('GET', '/api/keys', key.auth),
      await call('POST', '/api/keys', key.auth, { name: 'another', scopes: ['read'] }),
      await call('DELETE', `/api/keys/${key.id}`, key.auth),
      await call('POST', '/api/payments/credits', key.auth, { planKey: 'starter' }),
      await call('POST', '/api/payments/portal-session', key.auth),
    ];
    for (const response of refusals) {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toMatchObject({
        code: 'session_required',
        message: 'API keys cannot manage keys or payments; sign in to Prodshot to do this.',
      });
    }
    expect((await call('GET', '/api/keys', alice.auth)).json().data.map((k: { id: string }) => k.id)).toContain(key.id);
  });

  it('have a rate limit of their own: past it 429 with Retry-After, while the session goes on', async () => {
    const key = await createKey(bob, ['read']);
    for (let i = 0; i < KEY_LIMIT; i += 1) expect((await call('GET', '/api/images', key.auth)).statusCode).toBe(200);
    const limited = await call('GET', '/api/images', key.auth);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      code: 'rate_limited',
      message: expect.stringContaining(`this API key: it can make ${KEY_LIMIT} per minute`),
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['ratelimit-policy']).toBe(`"api-key";q=${KEY_LIMIT};w=60`);
    expect((await call('GET', '/api/images', bob.auth)).statusCode).toBe(200);
    // Another key of the same seller has its own bucket.
    const other = await createKey(bob, ['read']);
    expect((await call('GET', '/api/images', other.auth)).statusCode).toBe(200);
  });
});
