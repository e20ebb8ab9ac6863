import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError, loadConfig } from '@prodshot/config';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const compose = parse(readFileSync(path.join(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<
    string,
    { environment?: Record<string, string>; ports?: string[]; command?: string[]; entrypoint?: string[] }
  >;
};
/** Storage keys an operator chose: compose has no defaults for them. */
const storageKeys = {
  MINIO_ROOT_USER: 'ops-root',
  MINIO_ROOT_PASSWORD: 'd81f0c6a9e2b4f7a',
  MINIO_APP_ACCESS_KEY: 'prodshot-app',
  MINIO_APP_SECRET_KEY: 'c3e9a17b5d2f4e80',
};
/** What the runtime image sets before compose's environment: `ENV NODE_ENV=production HOST=0.0.0.0`. */
const imageEnv = Object.fromEntries(
  [
    ...readFileSync(path.join(repoRoot, 'infra/docker/Dockerfile'), 'utf8').matchAll(
      /^FROM \S+ AS runtime$[\s\S]*?^ENV (.+)$/gm,
    ),
  ]
    .flatMap((m) => m[1]!.split(' '))
    .map((pair) => pair.split('=') as [string, string]),
);

/** A service's environment as compose resolves it from the operator's shell: `${NAME:-default}`, and `${NAME:?message}` refuses to start without NAME. */
function serviceEnv(service: string, shell: Record<string, string>): Record<string, string> {
  const environment = compose.services[service]?.environment ?? {};
  const resolve = (value: string) =>
    String(value).replace(/\$\{(\w+):([-?])([^}]*)\}/g, (_all, name: string, kind: string, rest: string) => {
      const given = shell[name];
      if (kind === '-') return given ?? rest;
      if (!given) throw new Error(`compose refuses to start: ${name} ${rest}`);
      return given;
    });
  return {
    ...imageEnv,
    ...Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, resolve(value)])),
  };
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
      expect(serviceEnv(service, storageKeys)).toMatchObject({
        NODE_ENV: 'production',
        PUBLIC_URL: 'http://localhost:8080',
      });
      expect(refusal(serviceEnv(service, storageKeys)), service).toBe('ALLOW_EMBEDDED_AUTH');
      expect(refusal(serviceEnv(service, { ...storageKeys, ALLOW_EMBEDDED_AUTH: 'true' })), service).toBe(
        'ALLOW_LOCAL_PAYMENTS',
      );
    }
  });

  it('passes the two trial flags through to both', () => {
    for (const service of ['api', 'worker']) {
      const config = loadConfig(
        serviceEnv(service, { ...storageKeys, ALLOW_EMBEDDED_AUTH: 'true', ALLOW_LOCAL_PAYMENTS: 'true' }),
      );
      expect([config.auth.mode, config.payments.mode], service).toEqual(['embedded', 'local']);
    }
  });
});

describe('docker-compose.yml storage', () => {
  it('refuses to start without each storage key: there are no default credentials', () => {
    for (const missing of Object.keys(storageKeys)) {
      const shell = Object.fromEntries(Object.entries(storageKeys).filter(([name]) => name !== missing));
      const users = ['minio', 'minio-init', 'api', 'worker'].filter((service) =>
        JSON.stringify(compose.services[service]?.environment ?? {}).includes(`\${${missing}:?`),
      );
      expect(users.length, missing).toBeGreaterThan(0);
      for (const service of users)
        expect(() => serviceEnv(service, shell), `${service} without ${missing}`).toThrow(
          `refuses to start: ${missing}`,
        );
    }
  });

  it('gives the api and worker the bucket-scoped user minio-init creates, never the root keys', () => {
    for (const service of ['api', 'worker']) {
      const env = serviceEnv(service, { ...storageKeys, ALLOW_EMBEDDED_AUTH: 'true', ALLOW_LOCAL_PAYMENTS: 'true' });
      expect([env.MINIO_ACCESS_KEY, env.MINIO_SECRET_KEY], service).toEqual([
        storageKeys.MINIO_APP_ACCESS_KEY,
        storageKeys.MINIO_APP_SECRET_KEY,
      ]);
    }
    const init = (compose.services['minio-init']?.entrypoint ?? []).join(' ');
    expect(init).toContain('mc admin user add root "$${MINIO_APP_ACCESS_KEY}" "$${MINIO_APP_SECRET_KEY}"');
    expect(init).toContain('mc admin policy attach root prodshot-app --user "$${MINIO_APP_ACCESS_KEY}"');
    const policy = JSON.parse(readFileSync(path.join(repoRoot, 'infra/docker/minio-app-policy.json'), 'utf8')) as {
      Statement: { Resource: string[]; Action: string[] }[];
    };
    const resources = policy.Statement.flatMap((statement) => statement.Resource);
    expect(
      resources.every((resource) => resource === 'arn:aws:s3:::prodshot' || resource === 'arn:aws:s3:::prodshot/*'),
    ).toBe(true);
    expect(
      policy.Statement.flatMap((statement) => statement.Action).some(
        (action) => action.startsWith('admin:') || action === 's3:*',
      ),
    ).toBe(false);
  });

  it('publishes neither MinIO nor its console nor the api: browsers reach files through nginx only', () => {
    expect(compose.services.minio?.ports).toBeUndefined();
    expect(compose.services.minio?.command).not.toContain('--console-address');
    expect(compose.services.api?.ports).toBeUndefined();
    const published = Object.entries(compose.services)
      .filter(([, service]) => service.ports)
      .map(([name]) => name);
    expect(published).toEqual(['web']);
    const proxy = readFileSync(path.join(repoRoot, 'infra/docker/storage-proxy.conf.template'), 'utf8');
    expect(proxy).toContain('proxy_set_header Host $http_host;');
    expect(proxy).toContain('limit_except GET { deny all; }');
  });

  it("refuses at boot the credentials compose used to default to, and MinIO's own", () => {
    const trial = { ...storageKeys, ALLOW_EMBEDDED_AUTH: 'true', ALLOW_LOCAL_PAYMENTS: 'true' };
    expect(refusal(serviceEnv('api', { ...trial, MINIO_APP_SECRET_KEY: 'prodshot-secret' }))).toBe('MINIO_SECRET_KEY');
    expect(refusal(serviceEnv('worker', { ...trial, MINIO_APP_ACCESS_KEY: 'minioadmin' }))).toBe('MINIO_ACCESS_KEY');
  });
});
