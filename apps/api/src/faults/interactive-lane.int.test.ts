import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chatCompletion } from '@prodshot/testing/fakes';
import { eventually, grantCredits, upload } from '../seller-client.test-support.js';
import { sellerCutout, startOnHostedModel, type HostedModelStack } from './fault-support.test-support.js';

const stack = inject('stack');
let hosted: HostedModelStack;

beforeAll(async () => {
  // Renders hang at the provider; prompts are answered at once. One render thread, and an engine
  // deadline past the API's wait for an enhancement: a prompt that queued behind the hung render
  // could only time out.
  hosted = await startOnHostedModel(
    stack,
    (call) =>
      call.path === '/chat/completions'
        ? { status: 200, body: chatCompletion({ content: { prompt: 'A sunlit sandy beach at golden hour' } }) }
        : 'never',
    {
      env: { ENGINE_TIMEOUT_MS: '120000' },
      workerEnv: { WORKER_CONCURRENCY: '1', WORKER_INTERACTIVE_CONCURRENCY: '1' },
      seller: 'lanes',
    },
  );
  await grantCredits(hosted.testApp, hosted.session.userId, 2);
}, 120_000);

afterAll(() => hosted?.close());

describe('interactive work beside a render that holds every render thread', () => {
  it('enhances a prompt and analyses an upload while the render is still stuck at the provider', async () => {
    const { testApp, session, model } = hosted;
    const first = (await upload(testApp, session, await sellerCutout('#335'), 'bottle.png')).json()._id as string;
    const subjectOf = async (imageId: string) =>
      (await testApp.app.inject({ method: 'GET', url: `/api/images/${imageId}/subject`, headers: session.auth })).json()
        .data.status;
    await eventually(async () => (await subjectOf(first)) === 'ready', 60_000, 'the first upload to be analysed');
    const shot = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/generate-product-shots',
      headers: { ...session.auth, prefer: 'respond-async' },
      payload: { imageId: first, prompt: 'Beach sunset' },
    });
    expect(shot.statusCode, shot.body).toBe(202);
    await eventually(
      () => model.calls.some((call) => call.path === '/images/edits'),
      60_000,
      'the render to reach the provider',
    );

    const enhance = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/enhance-prompt',
      headers: session.auth,
      payload: { prompt: 'Beach sunset' },
    });
    expect(enhance.statusCode, enhance.body).toBe(200);
    expect(enhance.json().data.enhancedPrompt).toContain('sandy beach');
    const second = (await upload(testApp, session, await sellerCutout('#a33'), 'cap.png')).json()._id as string;
    await eventually(async () => (await subjectOf(second)) === 'ready', 40_000, 'the second upload to be analysed');

    const generation = (
      await testApp.app.inject({
        method: 'GET',
        url: `/api/generations/${shot.json().data.generationId}`,
        headers: session.auth,
      })
    ).json().data;
    expect(generation.status, 'the render still holds its thread').toBe('running');
    expect(model.violations).toEqual([]);
  });
});
