import { randomBytes } from 'node:crypto';
import { signature, verifySignature, type SignatureCheck } from './signed-url.js';

/** Long enough to start a download after reading the batch; short enough that a leaked link soon dies. */
export const ARCHIVE_LINK_TTL_SECONDS = 15 * 60;
const SECRET_KEY = 'prodshot:archive-link-secret';

/** What the secret is kept in: Redis (ioredis's client fits), which every process of a deployment shares. */
export interface SharedSecretStore {
  set(key: string, value: string, mode: 'NX'): Promise<unknown>;
  get(key: string): Promise<string | null>;
}

/**
 * The secret archive links are signed with, shared by every API replica and worker through Redis:
 * the first to ask writes one, the rest read it. Links outlive no Redis flush, which they need not.
 */
export class ArchiveLinkSecret {
  private cached: string | undefined;
  constructor(private readonly redis: SharedSecretStore) {}

  async get(): Promise<string> {
    if (this.cached) return this.cached;
    await this.redis.set(SECRET_KEY, randomBytes(32).toString('base64url'), 'NX');
    const secret = await this.redis.get(SECRET_KEY);
    if (!secret) throw new Error('The archive link secret could not be read from Redis');
    this.cached = secret;
    return secret;
  }
}

/** What an archive link signs: the batch, told apart from any stored file's key. */
const subject = (batchId: string) => `batch-archive\n${batchId}`;

/**
 * A link to a batch's zip that carries its own proof: the browser navigates to it and saves the
 * stream to disk, with no bearer token (a navigation cannot send one) and no blob in memory.
 */
export function archiveLink(secret: string, batchId: string, nowMs = Date.now()): string {
  const expires = Math.floor(nowMs / 1000) + ARCHIVE_LINK_TTL_SECONDS;
  return `/api/batches/${encodeURIComponent(batchId)}/archive?expires=${expires}&signature=${signature(secret, subject(batchId), expires)}`;
}

export function checkArchiveLink(
  secret: string,
  batchId: string,
  expires: number,
  given: string,
  nowMs = Date.now(),
): SignatureCheck {
  return verifySignature(secret, subject(batchId), expires, given, Math.floor(nowMs / 1000));
}
