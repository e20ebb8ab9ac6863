import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signWebhookBody } from '@prodshot/client';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const secret = 'whsec_example_receiver';
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

/** A delivery as Prodshot sends one: the raw JSON body, its signature at `t`, its event id. */
function deliver(url: string, body: string, eventId: string, signature: string) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature, [EVENT_ID_HEADER]: eventId },
    body,
  });
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('the example webhook receiver', () => {
  it('accepts a good delivery once, and acknowledges its replay without recording it again', async () => {
    receiver = await startWebhookReceiver();
    const body = JSON.stringify({ id: 'evt_a', type: 'generation.completed', data: { id: 'gen_1' } });
    // Before the receiver knows its secret, nothing verifies: Prodshot sends it again later.
    expect((await deliver(receiver.url, body, 'evt_a', signWebhookBody(secret, body, nowSeconds()))).status).toBe(400);
    receiver.trust(secret);
    expect((await deliver(receiver.url, body, 'evt_a', signWebhookBody(secret, body, nowSeconds()))).status).toBe(200);
    expect((await deliver(receiver.url, body, 'evt_a', signWebhookBody(secret, body, nowSeconds()))).status).toBe(200);
    expect(receiver.events).toEqual([{ eventId: 'evt_a', body: JSON.parse(body) }]);
    await expect(receiver.next((event) => event.eventId === 'evt_a', 100)).resolves.toMatchObject({ eventId: 'evt_a' });
  });

  it('refuses a bad signature, a body changed after signing, and a t older than the tolerance, recording none', async () => {
    receiver = await startWebhookReceiver();
    receiver.trust(secret);
    const body = JSON.stringify({ id: 'evt_b', type: 'generation.failed' });
    expect(
      (await deliver(receiver.url, body, 'evt_b', signWebhookBody('whsec_someone_else', body, nowSeconds()))).status,
    ).toBe(400);
    expect(
      (
        await deliver(
          receiver.url,
          body.replace('failed', 'completed'),
          'evt_b',
          signWebhookBody(secret, body, nowSeconds()),
        )
      ).status,
    ).toBe(400);
    expect((await deliver(receiver.url, body, 'evt_b', signWebhookBody(secret, body, nowSeconds() - 301))).status).toBe(
      400,
    );
    expect((await deliver(receiver.url, body, 'evt_b', 'garbage')).status).toBe(400);
    expect(receiver.events).toEqual([]);
    await expect(receiver.next(() => true, 50)).rejects.toThrow(/no matching webhook/);
  });
});
