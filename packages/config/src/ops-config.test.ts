import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './index.js';

const base = { DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db', REDIS_URL: 'redis://127.0.0.1:6379' };
const repoFile = (name: string) => readFileSync(new URL(`../../../${name}`, import.meta.url), 'utf8');
const pairs = (text: string, line: RegExp) => [...text.matchAll(line)].map((m) => [m[1]!, m[2]!] as const);

function refusal(env: NodeJS.ProcessEnv): ConfigError | undefined {
  try {
    loadConfig(env);
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
}

function expectRefusedByName(examples: (readonly [string, string])[]): void {
  for (const [name, value] of examples) {
    const error = refusal({ ...base, [name]: value });
    expect(error?.variable, `${name}=${value}`).toBe(name);
    expect(error?.message).toContain('example placeholder');
    expect(error?.message).not.toContain('\n');
  }
}

describe('operator settings', () => {
  it('puts the ops listener on loopback port 9464 unless OPS_HOST and OPS_PORT say otherwise', () => {
    expect(loadConfig(base).ops).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ ...base, OPS_HOST: '0.0.0.0', OPS_PORT: '9100' }).ops).toEqual({ host: '0.0.0.0', port: 9100 });
    expect(refusal({ ...base, OPS_PORT: '70000' })?.variable).toBe('OPS_PORT');
  });

  it('refuses at boot, naming the variable, every value of the example Secret but the board user name', () => {
    const secret = pairs(repoFile('infra/k8s/secret.example.yaml'), /^ {2}([A-Z_]+): (\S+)$/gm).filter(
      ([name]) => name !== 'ADMIN_USER',
    );
    expect(secret.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'DATABASE_URL',
        'REDIS_URL',
        'MINIO_SECRET_KEY',
        'SIGNED_URL_SECRET',
        'CLERK_SECRET_KEY',
        'STRIPE_WEBHOOK_SECRET',
        'ADMIN_PASSWORD',
      ]),
    );
    expectRefusedByName(secret);
  });

  it('refuses the key shapes and the database URL that .env.example shows', () => {
    const shown = pairs(repoFile('.env.example'), /^# ([A-Z_]+)=(.+?)(?: {2,}#.*)?$/gm).filter(
      ([, value]) => value.endsWith('...') || value.includes('user:password'),
    );
    expect(shown.map(([name]) => name).sort()).toEqual([
      'CLERK_JWT_KEY',
      'CLERK_PUBLISHABLE_KEY',
      'CLERK_SECRET_KEY',
      'DATABASE_URL',
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRET',
    ]);
    expectRefusedByName(shown);
  });

  it("refuses the published storage credentials (MinIO's default, AWS's example, the old compose default), naming the variable", () => {
    const minio = {
      ...base,
      MINIO_ENDPOINT: 'minio',
      MINIO_ACCESS_KEY: 'prodshot-app',
      MINIO_SECRET_KEY: 'a9f3c1d27e8b4a6c9d0e',
    };
    expect(refusal(minio)).toBeUndefined();
    for (const secret of ['minioadmin', 'prodshot-secret', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY']) {
      const error = refusal({ ...minio, MINIO_SECRET_KEY: secret });
      expect(error?.variable, secret).toBe('MINIO_SECRET_KEY');
      expect(error?.message).toContain('published example credential');
    }
    expect(refusal({ ...minio, MINIO_ACCESS_KEY: 'minioadmin' })?.variable).toBe('MINIO_ACCESS_KEY');
  });

  it('accepts chosen secrets, even ones that hold the words inside others', () => {
    expect(refusal({ ...base, ADMIN_USER: 'ops', ADMIN_PASSWORD: 'exchange-meridian-42' })).toBeUndefined();
    expect(refusal({ ...base, SIGNED_URL_SECRET: 'f3a9c1d27e8b4a6c9d0e' })).toBeUndefined();
  });
});

describe('TRUST_PROXY', () => {
  it('believes forwarded headers from loopback only unless told, and reads true, false and lists', () => {
    expect(loadConfig(base).trustProxy).toEqual(['loopback']);
    expect(loadConfig({ ...base, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ ...base, TRUST_PROXY: 'uniquelocal, 203.0.113.7, 2001:db8::/32' }).trustProxy).toEqual([
      'uniquelocal',
      '203.0.113.7',
      '2001:db8::/32',
    ]);
  });

  it('names TRUST_PROXY in one line for an entry that is no address, CIDR or named range', () => {
    for (const value of ['yes-please', '2', '10.0.0.0/33', '10.0.0.1/8/1', 'loopback,example.com']) {
      const error = refusal({ ...base, TRUST_PROXY: value });
      expect(error?.variable, value).toBe('TRUST_PROXY');
      expect(error?.message).not.toContain('\n');
    }
  });
});
