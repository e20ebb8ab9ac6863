import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Long enough to start a download after reading the batch; short enough that a leaked link soon dies. */
export const ARCHIVE_LINK_TTL_SECONDS = 15 * 60;
const SECRET_KEY = 'prodshot:archive-link-secret';

/**
 * The secret archive links are signed with, shared by every API replica through Redis: the first
 * replica to ask writes one, the rest read it. Links outlive no Redis flush, which they need not.
 */
export class ArchiveLinkSecret {
  private cached: string | undefined;
  constructor(private readonly redis: Redis) {}

  async get(): Promise<string> {
    if (this.cached) return this.cached;
    await this.redis.set(SECRET_KEY, randomBytes(32).toString('base64url'), 'NX');
    const secret = await this.redis.get(SECRET_KEY);
    if (!secret) throw new Error('The archive link secret could not be read from Redis');
    this.cached = secret;
    return secret;
  }
}

export type ArchiveLinkCheck = 'valid' | 'expired' | 'invalid';

function signature(secret: string, batchId: string, expires: number): string {
  return createHmac('sha256', secret).update(`batch-archive\n${batchId}\n${expires}`).digest('base64url');
}

/**
 * A link to a batch's zip that carries its own proof: the browser navigates to it and saves the
 * stream to disk, with no bearer token (a navigation cannot send one) and no blob in memory.
 */
export function archiveLink(secret: string, batchId: string, nowMs = Date.now()): string {
  const expires = Math.floor(nowMs / 1000) + ARCHIVE_LINK_TTL_SECONDS;
  return `/api/batches/${encodeURIComponent(batchId)}/archive?expires=${expires}&signature=${signature(secret, batchId, expires)}`;
}

export function checkArchiveLink(secret: string, batchId: string, expires: number, given: string, nowMs = Date.now()): ArchiveLinkCheck {
  if (!Number.isInteger(expires)) return 'invalid';
  const expected = Buffer.from(signature(secret, batchId, expires));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return 'invalid';
  return expires * 1000 < nowMs ? 'expired' : 'valid';
}
