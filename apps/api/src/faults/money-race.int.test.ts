import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { balanceOf, grantCredits, signIn, upload, type Session } from '../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;
let session: Session;
let imageId: string;

beforeAll(async () => {
  // The per-user rate limit would answer 429 first; this test is about the ledger.
  testApp = await buildTestApp(stack, { env: { RATE_LIMIT_GENERATIONS_PER_MINUTE: '1000' } });
  session = await signIn(testApp, 'racer@example.com');
  const photo = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#c44' } })
    .png()
    .toBuffer();
  imageId = (await upload(testApp, session, photo, 'red.png')).json()._id;
  await grantCredits(testApp, session.userId, 10);
});
afterAll(() => testApp.close());

describe('credits under a race', () => {
  it('accepts exactly 10 of 100 concurrent generations for the last 10 credits, never going negative', async () => {
    const responses = await Promise.all(
      Array.from({ length: 100 }, () =>
        testApp.app.inject({
          method: 'POST',
          url: '/api/images/generate-product-shots',
          headers: { ...session.auth, prefer: 'respond-async' },
          payload: { imageId, backgroundType: 'studio' },
        }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 202)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(90);
    expect(await balanceOf(testApp, session.userId)).toBe(0);
    const balances = await testApp.deps.db
      .selectFrom('credit_balances')
      .select(['subscription_credits', 'addon_credits'])
      .execute();
    expect(balances.every((b) => b.subscription_credits >= 0 && b.addon_credits >= 0)).toBe(true);
    const generations = await testApp.deps.db
      .selectFrom('generations')
      .select('id')
      .where('user_id', '=', session.userId)
      .execute();
    expect(generations).toHaveLength(10);
    expect(await testApp.deps.producer.queue('render').getWaitingCount()).toBe(10);
  });
});
