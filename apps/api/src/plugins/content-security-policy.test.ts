import { describe, expect, it } from 'vitest';
import { loadConfig } from '@prodshot/config';
import { contentSecurityPolicy } from './content-security-policy.js';

// A public origin: the embedded sign-in and local payments run there only when allowed.
const base = {
  DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
  REDIS_URL: 'redis://127.0.0.1:6379',
  PUBLIC_URL: 'https://app.example.com',
  ALLOW_EMBEDDED_AUTH: 'true',
  ALLOW_LOCAL_PAYMENTS: 'true',
};
const clerkKey = `pk_live_${Buffer.from('clerk.app.example.com$').toString('base64')}`;

describe('the content security policy', () => {
  it('forbids framing and lets the page connect to its own origin and socket only', () => {
    const policy = contentSecurityPolicy(loadConfig(base));
    expect(policy.frameAncestors).toEqual(["'none'"]);
    expect(policy.connectSrc).toEqual(["'self'", 'wss://app.example.com']);
    expect(policy.scriptSrc).toEqual(["'self'"]);
  });

  it('adds the object store it downloads files from', () => {
    const policy = contentSecurityPolicy(
      loadConfig({
        ...base,
        MINIO_ENDPOINT: 'minio.internal',
        MINIO_ACCESS_KEY: 'k',
        MINIO_SECRET_KEY: 's',
        MINIO_PUBLIC_URL: 'https://files.example.com/bucket',
      }),
    );
    expect(policy.connectSrc).toEqual(["'self'", 'wss://app.example.com', 'https://files.example.com']);
    expect(policy.imgSrc).toContain('https://files.example.com');
  });

  it("adds Clerk's frontend API, named by the publishable key, and its challenge frame when Clerk is configured", () => {
    const policy = contentSecurityPolicy(
      loadConfig({ ...base, CLERK_SECRET_KEY: 'sk_live_abc', CLERK_PUBLISHABLE_KEY: clerkKey }),
    );
    expect(policy.connectSrc).toEqual(["'self'", 'wss://app.example.com', 'https://clerk.app.example.com']);
    expect(policy.scriptSrc).toEqual(["'self'", 'https://clerk.app.example.com', 'https://challenges.cloudflare.com']);
    expect(policy.frameSrc).toEqual(['https://challenges.cloudflare.com']);
    expect(policy.frameAncestors).toEqual(["'none'"]);
  });
});
