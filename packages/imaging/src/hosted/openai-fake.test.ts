import { afterEach, describe, expect, it } from 'vitest';
import { apiError, chatCompletion, openAIFake } from '@prodshot/testing/fakes';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
});

describe('the OpenAI fake holds both sides to the published document', () => {
  it('answers a request off the request schema with 400 and records it', async () => {
    const fake = await openAIFake(() => ({ status: 200, body: chatCompletion({ content: 'hi' }) }));
    close = fake.close;
    const response = await fetch(`${fake.base}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini' }),
    });
    expect(response.status).toBe(400);
    expect(fake.violations.join('\n')).toContain("must have required property 'messages'");
  });

  it('refuses to send an answer of its own that the response schema rejects', async () => {
    const { created: _created, ...withoutCreated } = chatCompletion({ content: 'hi' });
    const fake = await openAIFake(() => ({ status: 200, body: withoutCreated }));
    close = fake.close;
    const response = await fetch(`${fake.base}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(500);
    expect(fake.violations.join('\n')).toContain("must have required property 'created'");
  });

  it('holds error bodies to ErrorResponse: `param` and `code` are required', async () => {
    const { error } = apiError('Rate limit reached.', 'requests', null, null);
    const fake = await openAIFake(() => ({
      status: 429,
      body: { error: { message: error.message, type: error.type } },
    }));
    close = fake.close;
    await fetch(`${fake.base}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(fake.violations.join('\n')).toMatch(/required property 'param'[\s\S]*required property 'code'/);
  });
});
