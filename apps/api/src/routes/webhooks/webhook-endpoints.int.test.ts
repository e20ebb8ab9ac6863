import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WEBHOOK_URL_MESSAGES } from '@prodshot/contracts';
import { productPhoto } from '../../faults/fault-support.test-support.js';
import { eventually, grantCredits, signIn, upload, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
/** PUBLIC_URL on loopback, as under npm start (the test app's default). */
let local: TestApp;
/** A deployment with a public PUBLIC_URL. */
let hosted: TestApp;
let alice: Session;
let bob: Session;
let carol: Session;

beforeAll(async () => {
  [local, hosted] = await Promise.all([
    buildTestApp(stack),
    buildTestApp(stack, {
      env: { PUBLIC_URL: 'https://app.example.com', ALLOW_EMBEDDED_AUTH: 'true', ALLOW_LOCAL_PAYMENTS: 'true' },
    }),
  ]);
  alice = await signIn(local, 'alice-hooks@example.com');
  bob = await signIn(local, 'bob-hooks@example.com');
  carol = await signIn(hosted, 'carol-hooks@example.com');
}, 60_000);
afterAll(() => Promise.all([local.close(), hosted.close()]));

function call(
  app: TestApp,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) {
  return app.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

async function register(app: TestApp, session: Session, payload: object) {
  const response = await call(app, 'POST', '/api/webhooks', session.auth, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{
    id: string;
    secret: string;
    url: string;
    events: string[];
    creditsLowThreshold: number | null;
  }>();
}

describe('webhook endpoints', () => {
  it('are answered once with their secret, then listed newest first without it, to their owner alone', async () => {
    const first = await register(local, alice, {
      url: 'http://127.0.0.1:4010/first',
      events: ['generation.completed'],
    });
    const second = await register(local, alice, {
      url: 'https://93.184.215.14/shop',
      events: ['generation.failed', 'credits.low'],
      creditsLowThreshold: 10,
    });
    expect(second.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    expect(second).toMatchObject({
      url: 'https://93.184.215.14/shop',
      events: ['generation.failed', 'credits.low'],
      creditsLowThreshold: 10,
    });
    expect(first.creditsLowThreshold).toBeNull();

    const list = await call(local, 'GET', '/api/webhooks', alice.auth);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((e: { id: string }) => e.id)).toEqual([second.id, first.id]);
    expect(list.body).not.toContain(second.secret);
    expect(Object.keys(list.json().data[0]).sort()).toEqual([
      'createdAt',
      'creditsLowThreshold',
      'events',
      'id',
      'url',
    ]);
    expect((await call(local, 'GET', '/api/webhooks', bob.auth)).json().data).toEqual([]);
  });

  it("answer 404 to another seller's delete and deliveries, and delete the owner's once", async () => {
    const hook = await register(local, alice, { url: 'http://localhost:4010/gone', events: ['batch.completed'] });
    expect((await call(local, 'DELETE', `/api/webhooks/${hook.id}`, bob.auth)).statusCode).toBe(404);
    expect((await call(local, 'GET', `/api/webhooks/${hook.id}/deliveries`, bob.auth)).statusCode).toBe(404);
    expect((await call(local, 'DELETE', '/api/webhooks/not-a-uuid', alice.auth)).statusCode).toBe(404);
    const deleted = await call(local, 'DELETE', `/api/webhooks/${hook.id}`, alice.auth);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ data: { id: hook.id, deleted: true } });
    expect((await call(local, 'DELETE', `/api/webhooks/${hook.id}`, alice.auth)).statusCode).toBe(404);
    expect(
      (await call(local, 'GET', '/api/webhooks', alice.auth)).json().data.map((e: { id: string }) => e.id),
    ).not.toContain(hook.id);
  });

  it('refuse an empty, repeated or unknown event list, and credits.low without a threshold', async () => {
    for (const payload of [
      { url: 'https://93.184.215.14/', events: [] },
      { url: 'https://93.184.215.14/', events: ['batch.completed', 'batch.completed'] },
      { url: 'https://93.184.215.14/', events: ['shot.done'] },
    ]) {
      expect(
        (await call(local, 'POST', '/api/webhooks', alice.auth, payload)).statusCode,
        JSON.stringify(payload),
      ).toBe(400);
    }
    const noThreshold = await call(local, 'POST', '/api/webhooks', alice.auth, {
      url: 'https://93.184.215.14/',
      events: ['credits.low'],
    });
    expect(noThreshold.statusCode).toBe(400);
    expect(noThreshold.json().message).toBe(WEBHOOK_URL_MESSAGES.thresholdRequired);
  });

  it('off loopback, take https to public addresses only, each refusal saying why', async () => {
    const refusals: [string, string][] = [
      ['http://93.184.215.14/hook', WEBHOOK_URL_MESSAGES.https],
      ['https://127.0.0.1/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://10.0.0.5/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://192.168.1.20/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://169.254.169.254/latest/meta-data', WEBHOOK_URL_MESSAGES.private],
      ['https://100.64.0.1/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://[fd00::1]/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://[::ffff:10.0.0.1]/hook', WEBHOOK_URL_MESSAGES.private],
      // A name is resolved at registration: localhost is loopback.
      ['https://localhost/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://user:pass@93.184.215.14/hook', WEBHOOK_URL_MESSAGES.credentials],
      ['shop.example.com/hook', WEBHOOK_URL_MESSAGES.invalid],
    ];
    for (const [url, message] of refusals) {
      const response = await call(hosted, 'POST', '/api/webhooks', carol.auth, {
        url,
        events: ['generation.completed'],
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toBe(message);
    }
    expect(
      (await register(hosted, carol, { url: 'https://93.184.215.14/hook', events: ['generation.completed'] })).url,
    ).toBe('https://93.184.215.14/hook');
  });

  it('on a loopback deployment, take http and loopback receivers too, but still no private network', async () => {
    expect(
      (await register(local, bob, { url: 'http://127.0.0.1:4010/dev', events: ['generation.completed'] })).url,
    ).toBe('http://127.0.0.1:4010/dev');
    expect(
      (await register(local, bob, { url: 'http://localhost:4010/dev', events: ['generation.completed'] })).url,
    ).toBe('http://localhost:4010/dev');
    const privateNet = await call(local, 'POST', '/api/webhooks', bob.auth, {
      url: 'http://10.0.0.5/dev',
      events: ['generation.completed'],
    });
    expect(privateNet.statusCode).toBe(400);
    expect(privateNet.json().message).toBe(WEBHOOK_URL_MESSAGES.private);
  });

  it('cannot be managed with an API key', async () => {
    const created = await call(local, 'POST', '/api/keys', alice.auth, { name: 'sync', scopes: ['generate', 'read'] });
    const key = { authorization: `Bearer ${created.json().key as string}` };
    expect((await call(local, 'GET', '/api/webhooks', key)).statusCode).toBe(403);
    expect(
      (
        await call(local, 'POST', '/api/webhooks', key, {
          url: 'http://127.0.0.1:1/x',
          events: ['generation.completed'],
        })
      ).statusCode,
    ).toBe(403);
  });

  it('get credits.low once when a reservation takes the balance below the threshold, listed with its attempts, and sent again on request', async () => {
    const dave = await signIn(local, 'dave-hooks@example.com');
    await grantCredits(local, dave.userId, 3);
    const hook = await register(local, dave, {
      url: 'http://127.0.0.1:9/never',
      events: ['credits.low'],
      creditsLowThreshold: 3,
    });
    const image = (await upload(local, dave, await productPhoto(), 'low.jpg')).json<{ _id: string }>();
    for (let i = 0; i < 2; i += 1) {
      const started = await local.app.inject({
        method: 'POST',
        url: `/api/images/${image._id}/remove-background`,
        headers: { ...dave.auth, prefer: 'respond-async' },
        payload: {},
      });
      expect(started.statusCode, started.body).toBe(202);
    }
    const deliveries = await eventually(
      async () => {
        const list = (await call(local, 'GET', `/api/webhooks/${hook.id}/deliveries`, dave.auth)).json<{
          data: { id: string; eventType: string; status: string; attempts: number }[];
        }>().data;
        return list.length > 0 ? list : undefined;
      },
      5_000,
      'a credits.low delivery',
    );
    // 3 → 2 crossed the threshold; 2 → 1 did not cross it again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const listed = (await call(local, 'GET', `/api/webhooks/${hook.id}/deliveries`, dave.auth)).json().data;
    expect(listed).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ eventType: 'credits.low', status: 'pending', attempts: 0 });
    const row = await local.deps.db
      .selectFrom('webhook_deliveries')
      .select('payload')
      .where('id', '=', deliveries[0]!.id)
      .executeTakeFirstOrThrow();
    expect(row.payload).toMatchObject({ type: 'credits.low', data: { balance: 2, threshold: 3 } });
    // Its job waits on the webhooks queue, under the delivery's id.
    const job = await local.deps.producer.queue('webhooks').getJob(deliveries[0]!.id);
    expect(job?.name).toBe('deliver-webhook');

    const again = await call(
      local,
      'POST',
      `/api/webhooks/${hook.id}/deliveries/${deliveries[0]!.id}/retry`,
      dave.auth,
    );
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({ id: deliveries[0]!.id, status: 'pending' });
    expect(await local.deps.producer.queue('webhooks').getJob(deliveries[0]!.id)).toBeDefined();
    expect(
      (await call(local, 'POST', `/api/webhooks/${hook.id}/deliveries/${deliveries[0]!.id}/retry`, alice.auth))
        .statusCode,
    ).toBe(404);
  });
});
