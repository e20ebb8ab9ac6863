import path from 'node:path';
import type { AuthConfig, PaymentsConfig } from './config-types.js';
import { ConfigError } from './config-error.js';
import type { Env } from './env-schema.js';
import { isLoopback } from './loopback.js';
import { need, splitList } from './read-env.js';

export function authConfig(env: Env, dataDir: string, publicUrl: string): AuthConfig {
  if (env.CLERK_SECRET_KEY || env.CLERK_PUBLISHABLE_KEY) {
    return {
      mode: 'clerk',
      secretKey: need(env, 'CLERK_SECRET_KEY', 'when CLERK_PUBLISHABLE_KEY is set'),
      publishableKey: need(env, 'CLERK_PUBLISHABLE_KEY', 'when CLERK_SECRET_KEY is set'),
      jwtKey: env.CLERK_JWT_KEY,
      authorizedParties: authorizedParties(env, publicUrl),
      jwtTemplate: env.CLERK_JWT_TEMPLATE,
      apiUrl: env.CLERK_API_URL,
    };
  }
  refuseBeyondLoopback(
    env,
    publicUrl,
    'ALLOW_EMBEDDED_AUTH',
    'the embedded sign-in (anyone signs in as any email)',
    'CLERK_SECRET_KEY and CLERK_PUBLISHABLE_KEY',
  );
  return { mode: 'embedded', keyDir: path.join(dataDir, 'keys'), beyondLoopback: env.ALLOW_EMBEDDED_AUTH };
}

export function paymentsConfig(env: Env, publicUrl: string): PaymentsConfig {
  if (env.STRIPE_SECRET_KEY) {
    return {
      mode: 'stripe',
      secretKey: env.STRIPE_SECRET_KEY,
      webhookSecret: need(env, 'STRIPE_WEBHOOK_SECRET', 'when STRIPE_SECRET_KEY is set'),
      apiBase: env.STRIPE_API_BASE,
    };
  }
  refuseBeyondLoopback(
    env,
    publicUrl,
    'ALLOW_LOCAL_PAYMENTS',
    'the local payments (plans granted for free)',
    'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET',
  );
  return { mode: 'local', beyondLoopback: env.ALLOW_LOCAL_PAYMENTS };
}

/**
 * Clerk checks a session token's `azp` against these origins only when there are some: with none,
 * a token minted for any other site on the same Clerk instance would pass. Unset: PUBLIC_URL's.
 */
function authorizedParties(env: Env, publicUrl: string): string[] {
  const listed = splitList(env.CLERK_AUTHORIZED_PARTIES);
  if (listed.length === 0) return [new URL(publicUrl).origin];
  for (const party of listed) {
    if (URL.parse(party)?.origin !== party) {
      throw new ConfigError(
        'CLERK_AUTHORIZED_PARTIES',
        `must list origins such as https://app.example.com, comma-separated (got "${party}")`,
      );
    }
  }
  return listed;
}

/**
 * The keyless modes are safe only where no one else can reach the app: PUBLIC_URL and the listener
 * (HOST) both on loopback. NODE_ENV says nothing about that, so beyond loopback it takes the flag.
 */
function refuseBeyondLoopback(
  env: Env,
  publicUrl: string,
  flag: 'ALLOW_EMBEDDED_AUTH' | 'ALLOW_LOCAL_PAYMENTS',
  mode: string,
  keys: string,
): void {
  if (env[flag] || (isLoopback(new URL(publicUrl).hostname) && isLoopback(env.HOST))) return;
  throw new ConfigError(
    flag,
    `must be true to run ${mode} beyond loopback (PUBLIC_URL ${publicUrl}, HOST ${env.HOST}): set ${keys}, or ${flag}=true for a trial`,
  );
}
