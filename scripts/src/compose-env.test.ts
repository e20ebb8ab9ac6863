import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError, loadConfig } from '@prodshot/config';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const compose = parse(readFileSync(path.join(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, { environment?: Record<string, string> }>;
};
/** What the runtime image sets before compose's environment: `ENV NODE_ENV=production HOST=0.0.0.0`. */
const imageEnv = Object.fromEntries(
  [...readFileSync(path.join(repoRoot, 'infra/docker/Dockerfile'), 'utf8').matchAll(/^FROM \S+ AS runtime$[\s\S]*?^ENV (.+)$/gm)]
    .flatMap((m) => m[1]!.split(' '))
    .map((pair) => pair.split('=') as [string, string]),
);

/** A service's environment as compose resolves it from the operator's shell: `${NAME:-default}`. */
function serviceEnv(service: string, shell: Record<string, string>): Record<string, string> {
  const environment = compose.services[service]?.environment ?? {};
  const resolve = (value: string) => String(value).replace(/\$\{(\w+):-([^}]*)\}/g, (_all, name: string, fallback: string) => shell[name] ?? fallback);
  return { ...imageEnv, ...Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, resolve(value)])) };
}

function refusal(env: Record<string, string>): string | undefined {
  try {
    loadConfig(env);
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError) return error.variable;
    throw error;
  }
}

describe('docker-compose.yml', () => {
  it('runs the api and workers on production defaults: no keyless sign-in or payments unless asked for', () => {
    expect(imageEnv).toMatchObject({ HOST: '0.0.0.0' });
    for (const service of ['api', 'worker']) {
      expect(serviceEnv(service, {})).toMatchObject({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:8080' });
      expect(refusal(serviceEnv(service, {})), service).toBe('ALLOW_EMBEDDED_AUTH');
      expect(refusal(serviceEnv(service, { ALLOW_EMBEDDED_AUTH: 'true' })), service).toBe('ALLOW_LOCAL_PAYMENTS');
    }
  });

  it('passes the two trial flags through to both', () => {
    for (const service of ['api', 'worker']) {
      const config = loadConfig(serviceEnv(service, { ALLOW_EMBEDDED_AUTH: 'true', ALLOW_LOCAL_PAYMENTS: 'true' }));
      expect([config.auth.mode, config.payments.mode], service).toEqual(['embedded', 'local']);
    }
  });
});
