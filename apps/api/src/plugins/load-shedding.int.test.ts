import { afterEach, describe, expect, inject, it } from 'vitest';
import { eventually } from '../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp | undefined;

afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

describe('load shedding', () => {
  it('answers 503 with Retry-After once the heap is over its limit, while the public health and the ops listener metrics keep answering', async () => {
    // A one-byte heap limit: the API is under pressure from its first memory sample on.
    testApp = await buildTestApp(stack, { env: { SHED_MAX_HEAP_BYTES: '1', SHED_RETRY_AFTER_SECONDS: '7' } });
    const shed = await eventually(
      async () => {
        const response = await testApp!.app.inject({ method: 'GET', url: '/api/payments/plans' });
        return response.statusCode === 503 ? response : undefined;
      },
      10_000,
      'the first memory sample to put the API under pressure',
    );
    expect(shed.headers['retry-after']).toBe('7');
    expect(shed.json()).toMatchObject({
      statusCode: 503,
      code: 'overloaded',
      message: 'The service is busy. Please try again in 7 seconds.',
    });
    expect((await testApp.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await testApp.ops.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
  });

  it('serves normally under the default limits', async () => {
    testApp = await buildTestApp(stack);
    expect(testApp.app.isUnderPressure()).toBe(false);
    expect((await testApp.app.inject({ method: 'GET', url: '/api/payments/plans' })).statusCode).toBe(200);
  });
});
