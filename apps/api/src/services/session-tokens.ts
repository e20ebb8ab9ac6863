import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SignJWT } from 'jose';

/** The embedded mode's RS256 private key (PKCS#8 PEM) under config.auth.keyDir. */
export const SESSION_KEY_FILE = 'session-signing.pem';

export interface SessionSigningKey {
  privateKey: KeyObject;
  /** SPKI PEM: what Clerk calls the JWT verification key (`jwtKey`). */
  publicKeyPem: string;
  kid: string;
}

/**
 * Loads the local signing key, creating it on first boot. The api replicas and a restarted api
 * must all verify each other's tokens, so the first writer wins: the key is written beside the
 * target and hard-linked into place, which appears whole or not at all.
 */
export async function loadOrCreateSessionKey(keyDir: string): Promise<SessionSigningKey> {
  const file = path.join(keyDir, SESSION_KEY_FILE);
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing) return sessionKeyFromPem(existing);
  await mkdir(keyDir, { recursive: true });
  const candidate = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  // Clerk's PEM loader expects a 2048-bit key with exponent 65537 (it strips that exact SPKI prefix).
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  await writeFile(candidate, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  try {
    await link(candidate, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(candidate, { force: true });
  }
  return sessionKeyFromPem(await readFile(file, 'utf8'));
}

export function sessionKeyFromPem(privateKeyPem: string): SessionSigningKey {
  const privateKey = createPrivateKey(privateKeyPem);
  const publicKeyPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
  const kid = `ins_local_${createPublicKey(privateKey).export({ format: 'jwk' }).n?.slice(0, 16) ?? 'key'}`;
  return { privateKey, publicKeyPem, kid };
}

export interface SessionTokenClaims {
  clerkId: string;
  sessionId: string;
  issuer: string;
  authorizedParty: string;
  lifetimeSeconds: number;
}

/** A token shaped like a Clerk session token (sub, sid, iss, azp, iat, nbf, exp), RS256. */
export async function signSessionToken(key: SessionSigningKey, claims: SessionTokenClaims): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sid: claims.sessionId, azp: claims.authorizedParty })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: key.kid })
    .setSubject(claims.clerkId)
    .setIssuer(claims.issuer)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + claims.lifetimeSeconds)
    .sign(key.privateKey);
}
