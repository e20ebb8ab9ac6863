import type { z } from 'zod';
import { ConfigError } from './config-error.js';
import { envSchema, type Env } from './env-schema.js';

export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const blanksRemoved = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = envSchema.safeParse(blanksRemoved);
  if (result.success) return result.data;
  throw toConfigError(result.error);
}

function toConfigError(error: z.ZodError): ConfigError {
  const issue = error.issues[0];
  const variable = String(issue?.path[0] ?? 'environment');
  const value = issue?.input;
  const shown = typeof value === 'string' ? ` (got "${value.length > 40 ? `${value.slice(0, 40)}…` : value}")` : '';
  return new ConfigError(variable, `${describeIssue(issue)}${shown}`);
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'is invalid';
  if (issue.code === 'invalid_format' && issue.format === 'url') return 'must be a URL';
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.join(', ')}`;
  return issue.message.startsWith('must') ? issue.message : `is invalid: ${issue.message}`;
}

/** Values an operator must choose: one still holding a value from .env.example or infra/k8s/secret.example.yaml stops the boot. */
const SECRET_VARIABLES = [
  'DATABASE_URL',
  'REDIS_URL',
  'MINIO_ACCESS_KEY',
  'MINIO_SECRET_KEY',
  'SIGNED_URL_SECRET',
  'CLERK_SECRET_KEY',
  'CLERK_PUBLISHABLE_KEY',
  'CLERK_JWT_KEY',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'OPENAI_API_KEY',
  'FAL_KEY',
  'ADMIN_PASSWORD',
] as const satisfies (keyof Env)[];

/** `change-me…` as a word of its own in any spelling, the `sk_live_...` shapes of .env.example, and its `user:password@host` URL. */
const PLACEHOLDER = /(^|[^a-z])change[-_ ]?me([^a-z]|$)|\.\.\.$|\/\/user:password@host[:/]/i;

/**
 * Storage keys published in MinIO's documentation, AWS's examples and this repository's own old
 * compose file: whoever holds them reads, overwrites and deletes every seller's files.
 */
const WELL_KNOWN_STORAGE_KEYS = new Set([
  'minioadmin',
  'minio123',
  'prodshot-secret',
  'AKIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
]);

export function refusePlaceholderSecrets(env: Env): void {
  for (const variable of SECRET_VARIABLES) {
    if (PLACEHOLDER.test(env[variable] ?? ''))
      throw new ConfigError(variable, 'still holds the example placeholder: set a real secret');
  }
  for (const variable of ['MINIO_ACCESS_KEY', 'MINIO_SECRET_KEY'] as const) {
    if (WELL_KNOWN_STORAGE_KEYS.has(env[variable] ?? '')) {
      throw new ConfigError(
        variable,
        'is a published example credential that anyone can try: create a bucket-scoped user with a secret of your own',
      );
    }
  }
}

export function need<K extends keyof Env>(env: Env, variable: K, when: string): NonNullable<Env[K]> {
  const value = env[variable];
  if (value === undefined || value === null) throw new ConfigError(variable, `is required ${when}`);
  return value as NonNullable<Env[K]>;
}

export function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
