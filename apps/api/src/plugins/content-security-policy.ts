import { parsePublishableKey } from '@clerk/shared/keys';
import type { Config } from '@prodshot/config';

/** Clerk's bot protection runs in a Cloudflare Turnstile frame on the sign-in and sign-up forms. */
const CLERK_CHALLENGES = 'https://challenges.cloudflare.com';
/** Where Clerk serves avatars and logos. */
const CLERK_IMAGES = 'https://img.clerk.com';

/**
 * The CSP of everything the API serves, the SPA first: no page may frame it, and it talks to its
 * own origin (HTTP and its socket), the object store it downloads files from and, when Clerk is
 * configured, Clerk's frontend API (named by the publishable key) and nothing else.
 * infra/docker/nginx.conf sends the same frame-ancestors and connect rules for the nginx-served SPA.
 */
export function contentSecurityPolicy(config: Config): Record<string, string[]> {
  const storage = storageOrigins(config);
  const clerkHost =
    config.auth.mode === 'clerk' ? parsePublishableKey(config.auth.publishableKey)?.frontendApi : undefined;
  const clerk = clerkHost ? `https://${clerkHost}` : undefined;
  return {
    defaultSrc: ["'self'"],
    imgSrc: ["'self'", 'data:', 'blob:', ...storage, ...(clerk ? [CLERK_IMAGES] : [])],
    connectSrc: ["'self'", socketOrigin(config.http.publicUrl), ...storage, ...(clerk ? [clerk] : [])],
    scriptSrc: ["'self'", ...(clerk ? [clerk, CLERK_CHALLENGES] : [])],
    workerSrc: ["'self'", ...(clerk ? ['blob:'] : [])],
    frameSrc: clerk ? [CLERK_CHALLENGES] : ["'none'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
  };
}

/** The socket's own origin by name: older browsers do not count ws: and wss: as 'self'. */
function socketOrigin(publicUrl: string): string {
  const url = new URL(publicUrl);
  return `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`;
}

function storageOrigins(config: Config): string[] {
  const storage = config.storage;
  if (storage.driver !== 'minio') return [];
  if (storage.publicUrl) return [new URL(storage.publicUrl).origin];
  const scheme = storage.useSSL ? 'https' : 'http';
  return [`${scheme}://${storage.endPoint}${storage.port ? `:${storage.port}` : ''}`];
}
