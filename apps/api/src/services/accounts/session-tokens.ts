import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import path from 'node:path';
import { SignJWT } from 'jose';
import { loadOrCreateFile } from '@prodshot/storage';

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
  const pem = await loadOrCreateFile(path.join(keyDir, SESSION_KEY_FILE), () => {
    // Clerk's PEM loader expects a 2048-bit key with exponent 65537 (it strips that exact SPKI prefix).
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
    return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  });
  return sessionKeyFromPem(pem);
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
