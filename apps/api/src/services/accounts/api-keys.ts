import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKey, ApiKeyScope, CreateApiKeyBody, CreatedApiKey } from '@prodshot/contracts';
import { isUuid, type ApiKeyRow, type ApiKeysRepository, type UsersRepository } from '@prodshot/db';
import type { AuthUser } from '../auth-user.js';
import { HttpError } from '../http-error.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 43 base62 characters: 256 bits of randomness, and a key a double click selects whole. */
const SECRET_LENGTH = 43;
/** Characters of the secret that lists show after the scheme: enough to tell a seller's keys apart, too few to guess from. */
const SHOWN_SECRET_CHARACTERS = 4;
const KEY_PATTERN = new RegExp(`^psk_(live|test)_[0-9A-Za-z]{${SECRET_LENGTH}}$`);
/** A busy key records its last use once a minute, not on every request. */
export const LAST_USE_WRITE_SECONDS = 60;

/** An API key's holder: its owner, acting with the key's scopes. */
export interface KeyHolder {
  keyId: string;
  scopes: ApiKeyScope[];
  user: AuthUser;
}

/** Whether a bearer credential is meant as an API key rather than a session token. */
export function looksLikeApiKey(token: string): boolean {
  return token.startsWith('psk_');
}

function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      // 248 = 4 × 62: bytes above it would make the first characters likelier.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

function sha256(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

function dto(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    prefix: row.prefix,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    lastUsedAddress: row.last_used_address,
  };
}

function keyNotFound(): HttpError {
  return new HttpError(404, 'API key not found', 'not_found');
}

/**
 * A seller's API keys: made here, shown once, kept only as their sha256. A request's key is looked
 * up by its hash on every call (no cache), so a revocation holds at once on every API replica.
 */
export class ApiKeyService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly users: UsersRepository,
    /** `live` where sign-in is Clerk; `test` in the embedded (keyless) mode. */
    private readonly mode: 'live' | 'test',
  ) {}

  async create(userId: string, body: CreateApiKeyBody): Promise<CreatedApiKey> {
    const name = body.name.trim();
    if (!name) throw new HttpError(400, 'Name is required', 'name_required');
    const scheme = `psk_${this.mode}_`;
    const key = scheme + base62(SECRET_LENGTH);
    const row = await this.keys.create({
      userId,
      name,
      scopes: body.scopes,
      prefix: key.slice(0, scheme.length + SHOWN_SECRET_CHARACTERS),
      hash: sha256(key).toString('hex'),
    });
    return { ...dto(row), key };
  }

  async list(userId: string): Promise<ApiKey[]> {
    return (await this.keys.listActive(userId)).map(dto);
  }

  /** 404 for an id the user has no key in force under, theirs or not. */
  async revoke(userId: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.keys.revoke(userId, id))) throw keyNotFound();
  }

  /** The key's owner and scopes, or null for a key unknown or revoked; records its use (see LAST_USE_WRITE_SECONDS). */
  async authenticate(key: string, address: string): Promise<KeyHolder | null> {
    if (!KEY_PATTERN.test(key)) return null;
    const hash = sha256(key);
    const row = await this.keys.findActiveByHash(hash.toString('hex'));
    if (!row || !timingSafeEqual(Buffer.from(row.hash, 'hex'), hash)) return null;
    const owner = await this.users.findById(row.user_id);
    if (!owner) return null;
    if (!row.last_used_at || Date.now() - row.last_used_at.getTime() >= LAST_USE_WRITE_SECONDS * 1000) {
      await this.keys.recordUse(row.id, address, LAST_USE_WRITE_SECONDS);
    }
    return {
      keyId: row.id,
      scopes: row.scopes,
      user: { id: owner.id, clerkId: owner.clerk_id, email: owner.email, name: owner.name },
    };
  }
}
