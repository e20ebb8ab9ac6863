import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GenerationsRepository } from '@prodshot/db';
import { generationOutputKey } from '@prodshot/storage';
import { mintSessionToken, testClerkId } from '@prodshot/testing';
import { grantCredits, upload } from '../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';
import { productPhoto } from './fault-support.test-support.js';

const stack = inject('stack');

/** Routes anyone may call: health, plans, sign-in, webhooks (signed by Stripe), docs, client config. */
const PUBLIC = new Set([
  'GET /api/health',
  'GET /api/payments/plans',
  'GET /api/payments/addon-plans',
  'POST /api/dev/sign-in',
  'POST /api/webhooks/stripe',
  'GET /api/client-config',
  'POST /api/auth/verify-token',
]);

/** Routes that refuse a call without their query: the query a real client sends, so ownership is what is tested. */
const QUERIES: Record<string, (ids: { generationId: string }) => string> = {
  '/api/generations/{id}/compliance': () => '?preset=amazon&output=0',
  '/api/exports/download': ({ generationId }) =>
    `?generationId=${generationId}&outputIndex=0&preset=amazon&format=jpeg`,
};

/**
 * GET routes whose answer a worker makes (a measurement) or made first (an export's file): no
 * worker runs here, so the owner's 200 is proven in their own suites (routes/exports).
 */
const WORKER_MADE = new Set(['GET /api/generations/{id}/compliance', 'GET /api/exports/download']);

interface Route {
  method: string;
  path: string;
}

let testApp: TestApp;
let routes: Route[];
const owner = { clerkId: testClerkId(), token: '', imageId: '', generationId: '', batchId: '', webhookId: '' };
const other = { clerkId: testClerkId(), token: '' };

type Ids = { imageId: string; generationId: string; batchId: string; webhookId: string };

function idFor(path: string, ids: Ids): string {
  if (path.startsWith('/api/generations')) return ids.generationId;
  if (path.startsWith('/api/webhooks')) return ids.webhookId;
  return path.startsWith('/api/batches') ? ids.batchId : ids.imageId;
}

async function call(route: Route, token: string | undefined, ids: Ids) {
  const url =
    route.path
      .replace('{id}', idFor(route.path, ids))
      .replace('{index}', '0')
      .replace('{deliveryId}', '00000000-0000-0000-0000-000000000000')
      .replace('{*}', 'x') + (QUERIES[route.path]?.(ids) ?? '');
  const payload =
    route.method === 'GET' || route.method === 'DELETE'
      ? undefined
      : {
          imageId: ids.imageId,
          generationId: ids.generationId,
          backgroundType: 'studio',
          prompt: 'x',
          name: 'x',
          token: 'x',
        };
  return testApp.app.inject({
    method: route.method as 'GET',
    url,
    ...(payload ? { payload } : {}),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

beforeAll(async () => {
  testApp = await buildTestApp(stack);
  owner.token = await mintSessionToken({ clerkId: owner.clerkId });
  other.token = await mintSessionToken({ clerkId: other.clerkId });
  const uploaded = await upload(
    testApp,
    { token: owner.token, userId: '', auth: { authorization: `Bearer ${owner.token}` } },
    await productPhoto(),
    'owner.jpg',
  );
  owner.imageId = uploaded.json()._id;
  const ownerRow = await testApp.deps.db
    .selectFrom('users')
    .select('id')
    .where('clerk_id', '=', owner.clerkId)
    .executeTakeFirstOrThrow();
  await grantCredits(testApp, ownerRow.id, 5);
  const started = await testApp.app.inject({
    method: 'POST',
    url: '/api/images/generate-product-shots',
    headers: { authorization: `Bearer ${owner.token}`, prefer: 'respond-async' },
    payload: { imageId: owner.imageId, backgroundType: 'studio' },
  });
  owner.generationId = started.json().data.generationId;
  // Its shot done, as a worker leaves it, so the owner can download it (no worker runs here).
  const shotKey = generationOutputKey(ownerRow.id, owner.generationId, 0, 'image/jpeg');
  await testApp.deps.store.put(shotKey, await productPhoto(), 'image/jpeg');
  const generations = new GenerationsRepository(testApp.deps.db);
  await generations.markStyleRunning(owner.generationId, 0);
  await generations.completeStyle(owner.generationId, 0, shotKey);
  // A batch of that upload with its one shot done too, so its zip has something in it.
  const batch = await testApp.app.inject({
    method: 'POST',
    url: '/api/batches',
    headers: { authorization: `Bearer ${owner.token}` },
    payload: { items: [{ imageId: owner.imageId }], choice: { mode: 'template', backgroundType: 'studio', count: 1 } },
  });
  owner.batchId = batch.json().data.batchId;
  const [batchGeneration] = await testApp.deps.db
    .selectFrom('generations')
    .select('id')
    .where('batch_id', '=', owner.batchId)
    .execute();
  const batchShotKey = generationOutputKey(ownerRow.id, batchGeneration!.id, 0, 'image/jpeg');
  await testApp.deps.store.put(batchShotKey, await productPhoto(), 'image/jpeg');
  await generations.markStyleRunning(batchGeneration!.id, 0);
  await generations.completeStyle(batchGeneration!.id, 0, batchShotKey);
  const webhook = await testApp.app.inject({
    method: 'POST',
    url: '/api/webhooks',
    headers: { authorization: `Bearer ${owner.token}` },
    payload: { url: 'http://127.0.0.1:9/owner', events: ['generation.completed'] },
  });
  owner.webhookId = webhook.json().id;
  const docs = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
    paths: Record<string, Record<string, unknown>>;
  }>();
  routes = Object.entries(docs.paths).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter((m) => ['get', 'post', 'patch', 'put', 'delete'].includes(m))
      .map((m) => ({ method: m.toUpperCase(), path })),
  );
}, 60_000);
afterAll(() => testApp.close());

function protectedRoutes(): Route[] {
  return routes.filter((r) => !PUBLIC.has(`${r.method} ${r.path}`) && !r.path.startsWith('/api/files/'));
}

describe('access matrix: every documented route × caller', () => {
  it('covers the spec routes', () => {
    const names = routes.map((r) => `${r.method} ${r.path}`);
    for (const expected of [
      'POST /api/images/upload',
      'GET /api/images/{id}',
      'DELETE /api/images/{id}',
      'GET /api/generations/{id}',
      'GET /api/users/profile',
      'POST /api/payments/subscription',
    ]) {
      expect(names).toContain(expected);
    }
    expect(protectedRoutes().length).toBeGreaterThan(15);
  });

  it('answers 401 to a signed-out caller, an expired token, a forged token and a token for another app', async () => {
    const expired = await mintSessionToken({ clerkId: owner.clerkId, expiresInSeconds: -120 });
    const otherAzp = await mintSessionToken({ clerkId: owner.clerkId, azp: 'https://evil.example' });
    const forged = `${owner.token.slice(0, -6)}AAAAAA`;
    for (const route of protectedRoutes()) {
      for (const [who, token] of [
        ['signed out', undefined],
        ['expired', expired],
        ['other azp', otherAzp],
        ['forged', forged],
      ] as const) {
        const response = await call(route, token, owner);
        expect(response.statusCode, `${route.method} ${route.path} as ${who}`).toBe(401);
      }
    }
  });

  it("answers 404 to another user asking for the owner's image or generation, and never shows them", async () => {
    for (const route of protectedRoutes().filter((r) => r.path.includes('{id}'))) {
      const response = await call(route, other.token, owner);
      expect(response.statusCode, `${route.method} ${route.path}`).toBe(404);
      expect(response.body).not.toContain(owner.imageId);
      expect(response.body).not.toContain(owner.generationId);
      expect(response.body).not.toContain(owner.batchId);
    }
    for (const route of protectedRoutes().filter((r) => r.method === 'GET' && !r.path.includes('{id}'))) {
      const response = await call(route, other.token, owner);
      expect(response.body, `${route.method} ${route.path}`).not.toContain(owner.imageId);
      expect(response.body, `${route.method} ${route.path}`).not.toContain(owner.generationId);
    }
  });

  it('lets the owner in', async () => {
    for (const route of protectedRoutes().filter(
      (r) => r.method === 'GET' && !WORKER_MADE.has(`${r.method} ${r.path}`),
    )) {
      const response = await call(route, owner.token, owner);
      expect([200, 302], `${route.method} ${route.path}`).toContain(response.statusCode);
    }
  });
});
