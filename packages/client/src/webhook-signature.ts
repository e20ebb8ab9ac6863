import { createHmac, timingSafeEqual } from 'node:crypto';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, signed with the endpoint's secret. */
export const SIGNATURE_HEADER = 'Prodshot-Signature';
/** The same on every retry of one event: a receiver drops the ones it has seen. */
export const EVENT_ID_HEADER = 'Prodshot-Event-Id';
/** How far a delivery's `t` may be from the receiver's clock: older is a replay, or a clock to fix. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The Prodshot-Signature value for `body` sent at `t` (unix seconds). */
export function signWebhookBody(secret: string, body: string, t: number): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

export interface SignatureCheck {
  secret: string;
  /** The raw body exactly as received: a re-serialized JSON would not match. */
  body: string;
  header: string | undefined;
  /** Unix seconds; now unless told. */
  now?: number;
  toleranceSeconds?: number;
}

/** Whether the header signs this body with this secret, within the tolerance; compared in constant time. */
export function verifyWebhookSignature({
  secret,
  body,
  header,
  now = Date.now() / 1000,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
}: SignatureCheck): boolean {
  const fields = new Map(
    (header ?? '').split(',').map((part) => part.trim().split('=', 2) as [string, string | undefined]),
  );
  const t = Number(fields.get('t'));
  if (!Number.isInteger(t) || Math.abs(now - t) > toleranceSeconds) return false;
  const given = Buffer.from(fields.get('v1') ?? '', 'hex');
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export type WebhookVerdict = 'accepted' | 'bad-signature' | 'repeat';

/**
 * A receiver's checks in order: the signature (and its age), then the event id, so that a retry of
 * an event already handled is acknowledged and not handled twice. Event ids are held in memory:
 * a long-lived receiver keeps them in its database instead.
 */
export class WebhookGuard {
  private readonly seen = new Set<string>();

  constructor(
    private readonly secret: string,
    private readonly toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
  ) {}

  check(delivery: {
    body: string;
    signature: string | undefined;
    eventId: string | undefined;
    now?: number;
  }): WebhookVerdict {
    const signed = verifyWebhookSignature({
      secret: this.secret,
      body: delivery.body,
      header: delivery.signature,
      toleranceSeconds: this.toleranceSeconds,
      ...(delivery.now === undefined ? {} : { now: delivery.now }),
    });
    if (!signed || !delivery.eventId) return 'bad-signature';
    if (this.seen.has(delivery.eventId)) return 'repeat';
    this.seen.add(delivery.eventId);
    return 'accepted';
  }
}
