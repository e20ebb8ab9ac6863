import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';

/** An RS256 key pair standing in for a Clerk instance's signing key. */
export interface TestSessionKey {
  privateKey: KeyObject;
  /** PKCS#8 PEM, for writing where an app under test loads its embedded key from. */
  privateKeyPem: string;
  /** SPKI PEM: what Clerk calls the JWT verification key (CLERK_JWT_KEY / `jwtKey`). */
  publicKeyPem: string;
}

/** The origin test apps are configured with (PUBLIC_URL), so the azp they accept. */
export const TEST_AUTHORIZED_PARTY = 'http://127.0.0.1:3000';

export function createTestSessionKey(): TestSessionKey {
  // Clerk's PEM loader accepts 2048-bit keys with exponent 65537 only.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  return {
    privateKey,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

let shared: TestSessionKey | undefined;

/** One key per test process: buildTestApp installs it by default, so minted tokens verify without setup. */
export function testSessionKey(): TestSessionKey {
  shared ??= createTestSessionKey();
  return shared;
}

export interface MintSessionTokenOptions {
  clerkId: string;
  /** Authorized party; defaults to TEST_AUTHORIZED_PARTY. */
  azp?: string;
  /** Negative for a token that has already expired. Defaults to 300. */
  expiresInSeconds?: number;
  /** Signing key; defaults to testSessionKey(). */
  key?: TestSessionKey;
  sessionId?: string;
  /** Extra claims, as a Clerk JWT template adds (email, name). */
  claims?: Record<string, unknown>;
}

/** A token shaped like a Clerk session token (sub, sid, iss, azp, iat, nbf, exp), RS256. */
export async function mintSessionToken(options: MintSessionTokenOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const expiresIn = options.expiresInSeconds ?? 300;
  // An expired token was issued before it expired, or Clerk would reject it for its iat instead.
  const issuedAt = Math.min(now, now + expiresIn - 60);
  return new SignJWT({
    ...options.claims,
    sid: options.sessionId ?? `sess_${randomBytes(8).toString('hex')}`,
    azp: options.azp ?? TEST_AUTHORIZED_PARTY,
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: 'ins_test' })
    .setSubject(options.clerkId)
    .setIssuer('https://prodshot-test.clerk.accounts.dev')
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt)
    .setExpirationTime(now + expiresIn)
    .sign((options.key ?? testSessionKey()).privateKey);
}

/** A fresh Clerk-like user id, so tests never share a user. */
export function testClerkId(): string {
  return `user_test_${randomBytes(8).toString('hex')}`;
}

export interface MintTemplateTokenOptions {
  clerkId: string;
  /** Authorized party; defaults to TEST_AUTHORIZED_PARTY. */
  azp?: string;
  expiresInSeconds?: number;
  key?: TestSessionKey;
  /** The template's own claims (email, name, an aud...). */
  claims?: Record<string, unknown>;
}

/**
 * A token shaped like one from a Clerk JWT template: Clerk's default claims (sub, iss, azp, iat,
 * nbf, exp, jti) and the template's own, but no session id (sid) and none of the session claims.
 */
export async function mintTemplateToken(options: MintTemplateTokenOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const expiresIn = options.expiresInSeconds ?? 60;
  const issuedAt = Math.min(now, now + expiresIn - 60);
  return new SignJWT({ ...options.claims, azp: options.azp ?? TEST_AUTHORIZED_PARTY })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: 'ins_test' })
    .setSubject(options.clerkId)
    .setIssuer('https://prodshot-test.clerk.accounts.dev')
    .setJti(randomBytes(10).toString('hex'))
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt)
    .setExpirationTime(now + expiresIn)
    .sign((options.key ?? testSessionKey()).privateKey);
}
