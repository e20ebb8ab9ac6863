import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiError, chatCompletion } from '@prodshot/testing/fakes';
import { startOnHostedModel, type HostedModelStack } from './fault-support.test-support.js';

const stack = inject('stack');
/** Longer than the engine's budget for one call, so the adapter gives up at once rather than waiting it out itself. */
const RETRY_AFTER_S = 3;
let hosted: HostedModelStack;
const chatCalledAt: number[] = [];

beforeAll(async () => {
  // The job's own backoff would retry after 50 ms: only the provider's Retry-After can hold it back.
  hosted = await startOnHostedModel(
    stack,
    (call) => {
      if (call.path !== '/chat/completions')
        return { status: 404, body: apiError('not here', 'invalid_request_error', null, null) };
      chatCalledAt.push(Date.now());
      return chatCalledAt.length === 1
        ? {
            status: 429,
            headers: { 'retry-after': String(RETRY_AFTER_S) },
            body: apiError('Rate limit reached for requests.', 'requests', null, 'rate_limit_exceeded'),
          }
        : {
            status: 200,
            body: chatCompletion({ content: { prompt: 'A sunlit sandy beach at golden hour, soft shadows' } }),
          };
    },
    { env: { ENGINE_TIMEOUT_MS: '2000', JOB_BACKOFF_MS: '50' }, seller: 'rate-limited' },
  );
}, 120_000);

afterAll(() => hosted?.close());

describe('a hosted model answering 429 with Retry-After, through the engine thread', () => {
  it('retries the job no sooner than the model asked, and the seller gets the answer', async () => {
    const { testApp, session, model } = hosted;
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/enhance-prompt',
      headers: session.auth,
      payload: { prompt: 'Beach sunset' },
    });

    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.enhancedPrompt).toContain('sandy beach');
    expect(chatCalledAt).toHaveLength(2);
    expect(chatCalledAt[1]! - chatCalledAt[0]!).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000);
    expect(model.violations).toEqual([]);
  });
});
