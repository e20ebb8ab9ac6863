import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import { apiError, chatCompletion, openAIFake } from '@prodshot/testing/fakes';
import { signIn, type Session } from '../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');
/** Longer than the engine's budget for one call, so the adapter gives up at once rather than waiting it out itself. */
const RETRY_AFTER_S = 3;
let testApp: TestApp;
let worker: WorkerProcess;
let model: Awaited<ReturnType<typeof openAIFake>>;
let session: Session;
const chatCalledAt: number[] = [];

beforeAll(async () => {
  model = await openAIFake((call) => {
    if (call.path !== '/chat/completions') return { status: 404, body: apiError('not here', 'invalid_request_error', null, null) };
    chatCalledAt.push(Date.now());
    return chatCalledAt.length === 1
      ? { status: 429, headers: { 'retry-after': String(RETRY_AFTER_S) }, body: apiError('Rate limit reached for requests.', 'requests', null, 'rate_limit_exceeded') }
      : { status: 200, body: chatCompletion({ content: { prompt: 'A sunlit sandy beach at golden hour, soft shadows' } }) };
  });
  // The job's own backoff would retry after 50 ms: only the provider's Retry-After can hold it back.
  testApp = await buildTestApp(stack, { env: { IMAGE_MODEL: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: model.base, ENGINE_TIMEOUT_MS: '2000', JOB_BACKOFF_MS: '50' } });
  worker = await startWorkerProcess(testApp.env);
  session = await signIn(testApp, `rate-limited-${Date.now()}@example.com`, 'growth');
}, 120_000);

afterAll(async () => {
  await worker?.stop('SIGKILL');
  await model?.close();
  await testApp?.close();
});

describe('a hosted model answering 429 with Retry-After, through the engine thread', () => {
  it('retries the job no sooner than the model asked, and the seller gets the answer', async () => {
    const response = await testApp.app.inject({ method: 'POST', url: '/api/images/enhance-prompt', headers: session.auth, payload: { prompt: 'Beach sunset' } });

    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.enhancedPrompt).toContain('sandy beach');
    expect(chatCalledAt).toHaveLength(2);
    expect(chatCalledAt[1]! - chatCalledAt[0]!).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000);
    expect(model.violations).toEqual([]);
  });
});
