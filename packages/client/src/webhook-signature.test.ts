import { describe, expect, it } from 'vitest';
import { signWebhookBody, verifyWebhookSignature, WebhookGuard } from './webhook-signature.js';

const secret = 'whsec_endpoint_secret';
const body = JSON.stringify({ id: 'evt_1', type: 'generation.completed', data: { id: 'gen_1', status: 'complete' } });
const now = 1_800_000_000;

describe('verifyWebhookSignature', () => {
  it('accepts the body signed with the secret at a recent t', () => {
    expect(verifyWebhookSignature({ secret, body, header: signWebhookBody(secret, body, now - 10), now })).toBe(true);
  });

  it('refuses another secret, another body, a mangled or missing header', () => {
    const header = signWebhookBody(secret, body, now);
    expect(verifyWebhookSignature({ secret: 'whsec_other', body, header, now })).toBe(false);
    expect(verifyWebhookSignature({ secret, body: body.replace('complete', 'failed'), header, now })).toBe(false);
    expect(verifyWebhookSignature({ secret, body, header: header.replace(/v1=../, 'v1=00'), now })).toBe(false);
    expect(verifyWebhookSignature({ secret, body, header: header.replace(/,v1=.*/, ''), now })).toBe(false);
    expect(verifyWebhookSignature({ secret, body, header: 'v1=abc,t=x', now })).toBe(false);
    expect(verifyWebhookSignature({ secret, body, header: undefined, now })).toBe(false);
  });

  it('refuses a t outside the tolerance either way: a replay of an old delivery, or one from the future', () => {
    expect(verifyWebhookSignature({ secret, body, header: signWebhookBody(secret, body, now - 301), now })).toBe(false);
    expect(verifyWebhookSignature({ secret, body, header: signWebhookBody(secret, body, now + 301), now })).toBe(false);
    expect(verifyWebhookSignature({ secret, body, header: signWebhookBody(secret, body, now - 300), now })).toBe(true);
    expect(
      verifyWebhookSignature({
        secret,
        body,
        header: signWebhookBody(secret, body, now - 60),
        now,
        toleranceSeconds: 30,
      }),
    ).toBe(false);
  });
});

describe('WebhookGuard', () => {
  it('accepts an event once, acknowledges its repeats without accepting them, and refuses a bad signature', () => {
    const guard = new WebhookGuard(secret);
    const delivery = { body, signature: signWebhookBody(secret, body, now), eventId: 'evt_1', now };
    expect(guard.check({ ...delivery, signature: signWebhookBody('whsec_other', body, now) })).toBe('bad-signature');
    expect(guard.check(delivery)).toBe('accepted');
    // A retry signs again at a later t: still the same event.
    expect(guard.check({ ...delivery, signature: signWebhookBody(secret, body, now + 5), now: now + 5 })).toBe(
      'repeat',
    );
    expect(guard.check({ ...delivery, eventId: undefined })).toBe('bad-signature');
    expect(guard.check({ ...delivery, eventId: 'evt_2' })).toBe('accepted');
  });
});
