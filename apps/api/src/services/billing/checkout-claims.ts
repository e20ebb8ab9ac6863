import type { Redis } from 'ioredis';

/** What a seller's open subscription checkout is remembered by: the request that opened it and where it pays. */
export interface CheckoutClaim {
  idempotencyKey: string | null;
  url: string | null;
}

export type ClaimAttempt = { claimed: true } | { claimed: false; existing: CheckoutClaim; msLeft: number };

/**
 * One open subscription checkout per seller, held in Redis for as long as Stripe keeps the session
 * open (its expires_at): a second tab, or Back and click again, finds it and is refused, so only one
 * subscription can come of it. SET NX makes the claim atomic across API replicas. Losing Redis loses
 * only this first line: a second subscription that still starts is cancelled when its webhook lands.
 */
export class CheckoutClaims {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(userId: string): string {
    return `${this.prefix}:checkout-claim:subscription:${userId}`;
  }

  async claim(userId: string, idempotencyKey: string | undefined, ttlMs: number): Promise<ClaimAttempt> {
    const key = this.key(userId);
    const value: CheckoutClaim = { idempotencyKey: idempotencyKey ?? null, url: null };
    if ((await this.redis.set(key, JSON.stringify(value), 'PX', ttlMs, 'NX')) === 'OK') return { claimed: true };
    const [raw, msLeft] = await Promise.all([this.redis.get(key), this.redis.pttl(key)]);
    // Expired between the two calls: the next attempt will find it free.
    if (raw === null) return { claimed: false, existing: { idempotencyKey: null, url: null }, msLeft: 0 };
    return { claimed: false, existing: JSON.parse(raw) as CheckoutClaim, msLeft: Math.max(0, msLeft) };
  }

  /** Remembers where the claimed checkout pays, so that a retry of the same request answers the same link. */
  async opened(userId: string, claim: CheckoutClaim): Promise<void> {
    await this.redis.set(this.key(userId), JSON.stringify(claim), 'KEEPTTL', 'XX');
  }

  /** No session came of the claim (Stripe refused it): the seller may try again at once. */
  async release(userId: string): Promise<void> {
    await this.redis.del(this.key(userId));
  }
}
