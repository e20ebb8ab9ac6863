import { describe, expect, it } from 'vitest';
import { ConfigError, isLoopback, loadConfig } from './index.js';

const base = { DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db', REDIS_URL: 'redis://127.0.0.1:6379' };

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('names REDIS_URL in a one-line error when it is not a URL', () => {
    const error = errorOf(() => loadConfig({ ...base, REDIS_URL: 'not-a-url' }));
    expect(error.variable).toBe('REDIS_URL');
    expect(error.message).toContain('REDIS_URL');
    expect(error.message).not.toContain('\n');
  });

  it('refuses a Postgres URL given as REDIS_URL', () => {
    expect(errorOf(() => loadConfig({ ...base, REDIS_URL: 'postgres://x/y' })).variable).toBe('REDIS_URL');
  });

  it('names PORT when it is not a port number', () => {
    expect(errorOf(() => loadConfig({ ...base, PORT: '99999' })).variable).toBe('PORT');
  });

  it('purges expired history hourly unless HISTORY_PURGE_INTERVAL_MS says otherwise, and names it when too short', () => {
    expect(loadConfig(base).worker.historyPurgeIntervalMs).toBe(3_600_000);
    expect(loadConfig({ ...base, HISTORY_PURGE_INTERVAL_MS: '600000' }).worker.historyPurgeIntervalMs).toBe(600_000);
    expect(errorOf(() => loadConfig({ ...base, HISTORY_PURGE_INTERVAL_MS: '5' })).variable).toBe(
      'HISTORY_PURGE_INTERVAL_MS',
    );
  });

  it('requires the URLs only when the process asks for them', () => {
    expect(loadConfig({}).databaseUrl).toBeUndefined();
    expect(errorOf(() => loadConfig({}, { require: ['DATABASE_URL'] })).variable).toBe('DATABASE_URL');
  });

  it('picks embedded defaults when no service is configured', () => {
    const config = loadConfig(base, { cwd: '/srv/app' });
    expect(config.storage).toMatchObject({ driver: 'fs', dir: '/srv/app/.data/storage' });
    expect(config.auth.mode).toBe('embedded');
    expect(config.payments.mode).toBe('local');
    expect(config.imageModel.kind).toBe('local');
    expect(config.http.publicUrl).toBe('http://localhost:3000');
  });

  it('picks MinIO when MINIO_ENDPOINT is set and asks for its keys', () => {
    expect(errorOf(() => loadConfig({ ...base, MINIO_ENDPOINT: 'minio' })).variable).toBe('MINIO_ACCESS_KEY');
    const config = loadConfig({
      ...base,
      MINIO_ENDPOINT: 'minio',
      MINIO_ACCESS_KEY: 'a',
      MINIO_SECRET_KEY: 'b',
      MINIO_PORT: '9000',
    });
    expect(config.storage).toMatchObject({ driver: 'minio', endPoint: 'minio', port: 9000, useSSL: false });
  });

  it('cuts signed URLs once an hour unless SIGNED_URL_WINDOW_SECONDS says otherwise, within what S3 can presign', () => {
    const minio = { ...base, MINIO_ENDPOINT: 'minio', MINIO_ACCESS_KEY: 'a', MINIO_SECRET_KEY: 'b' };
    expect(loadConfig(base).storage.windowSeconds).toBe(3600);
    expect(loadConfig({ ...minio, SIGNED_URL_WINDOW_SECONDS: '900' }).storage.windowSeconds).toBe(900);
    expect(errorOf(() => loadConfig({ ...base, SIGNED_URL_WINDOW_SECONDS: '10' })).variable).toBe(
      'SIGNED_URL_WINDOW_SECONDS',
    );
    const tooLong = { SIGNED_URL_TTL_SECONDS: String(7 * 24 * 3600), SIGNED_URL_WINDOW_SECONDS: '3600' };
    expect(errorOf(() => loadConfig({ ...minio, ...tooLong })).variable).toBe('SIGNED_URL_WINDOW_SECONDS');
    expect(loadConfig({ ...base, ...tooLong }).storage.windowSeconds).toBe(3600);
  });

  describe('the keyless sign-in and payments', () => {
    const clerk = { CLERK_SECRET_KEY: 'sk_test_x', CLERK_PUBLISHABLE_KEY: 'pk_test_x' };
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    const modes = (env: NodeJS.ProcessEnv) => {
      const config = loadConfig({ ...base, ...env });
      return [config.auth.mode, config.payments.mode];
    };

    it('run where PUBLIC_URL and HOST are on loopback, whatever NODE_ENV says', () => {
      for (const PUBLIC_URL of [
        undefined,
        'http://localhost:3000',
        'http://127.0.0.1:3000',
        'http://127.8.9.10',
        'http://[::1]:3000',
      ]) {
        for (const HOST of [undefined, '127.0.0.1', 'localhost', '::1']) {
          expect(modes({ PUBLIC_URL, HOST, NODE_ENV: 'production' }), `${PUBLIC_URL} on ${HOST}`).toEqual([
            'embedded',
            'local',
          ]);
        }
      }
    });

    it('stop the boot beyond loopback with one line naming ALLOW_EMBEDDED_AUTH, then ALLOW_LOCAL_PAYMENTS', () => {
      const error = errorOf(() => loadConfig({ ...base, PUBLIC_URL: 'https://app.example.com' }));
      expect(error.variable).toBe('ALLOW_EMBEDDED_AUTH');
      expect(error.message).toBe(
        'Invalid configuration: ALLOW_EMBEDDED_AUTH must be true to run the embedded sign-in (anyone signs in as any email) beyond loopback ' +
          '(PUBLIC_URL https://app.example.com, HOST 127.0.0.1): set CLERK_SECRET_KEY and CLERK_PUBLISHABLE_KEY, or ALLOW_EMBEDDED_AUTH=true for a trial',
      );
      const payments = errorOf(() => loadConfig({ ...base, ...clerk, PUBLIC_URL: 'https://app.example.com' }));
      expect(payments.variable).toBe('ALLOW_LOCAL_PAYMENTS');
      expect(payments.message).toContain('STRIPE_SECRET_KEY');
      expect(payments.message).not.toContain('\n');
      expect(modes({ ...clerk, ...stripe, PUBLIC_URL: 'https://app.example.com' })).toEqual(['clerk', 'stripe']);
    });

    it('stop the boot on a loopback PUBLIC_URL when the listener is open to the network, as in a container', () => {
      for (const HOST of ['0.0.0.0', '::', '10.0.0.5']) {
        expect(errorOf(() => loadConfig({ ...base, HOST, PUBLIC_URL: 'http://localhost:8080' })).variable, HOST).toBe(
          'ALLOW_EMBEDDED_AUTH',
        );
      }
    });

    it('do not take a host that only starts like loopback for it', () => {
      for (const PUBLIC_URL of [
        'http://localhost.example.com',
        'http://127.0.0.1.nip.io',
        'http://localhost-app.example.com',
      ]) {
        expect(errorOf(() => loadConfig({ ...base, PUBLIC_URL })).variable, PUBLIC_URL).toBe('ALLOW_EMBEDDED_AUTH');
      }
    });

    it('run beyond loopback each on its own flag, for a trial', () => {
      const open = { PUBLIC_URL: 'https://trial.example.com', HOST: '0.0.0.0' };
      expect(modes({ ...open, ALLOW_EMBEDDED_AUTH: 'true', ALLOW_LOCAL_PAYMENTS: 'true' })).toEqual([
        'embedded',
        'local',
      ]);
      expect(modes({ ...open, ALLOW_EMBEDDED_AUTH: 'true', ...stripe })).toEqual(['embedded', 'stripe']);
      expect(modes({ ...open, ALLOW_LOCAL_PAYMENTS: 'true', ...clerk })).toEqual(['clerk', 'local']);
      expect(errorOf(() => loadConfig({ ...base, ...open, ALLOW_EMBEDDED_AUTH: 'true' })).variable).toBe(
        'ALLOW_LOCAL_PAYMENTS',
      );
      expect(
        errorOf(() => loadConfig({ ...base, ...open, ALLOW_EMBEDDED_AUTH: 'false', ALLOW_LOCAL_PAYMENTS: 'true' }))
          .variable,
      ).toBe('ALLOW_EMBEDDED_AUTH');
      expect(errorOf(() => loadConfig({ ...base, ALLOW_EMBEDDED_AUTH: 'sure' })).variable).toBe('ALLOW_EMBEDDED_AUTH');
    });

    it('carry their flag to the API, which serves loopback clients alone without it', () => {
      expect(loadConfig(base)).toMatchObject({
        auth: { mode: 'embedded', beyondLoopback: false },
        payments: { mode: 'local', beyondLoopback: false },
      });
      const flagged = loadConfig({ ...base, ALLOW_EMBEDDED_AUTH: 'true', ALLOW_LOCAL_PAYMENTS: 'yes' });
      expect(flagged).toMatchObject({ auth: { beyondLoopback: true }, payments: { beyondLoopback: true } });
    });
  });

  it('knows loopback by name and address, an IPv4 peer of a dual-stack listener included', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.200.0.9', '::1', '[::1]', '::ffff:127.0.0.1'])
      expect(isLoopback(host), host).toBe(true);
    for (const host of [
      '203.0.113.7',
      '::ffff:203.0.113.7',
      '10.0.0.1',
      '::',
      '0.0.0.0',
      'localhost.example.com',
      '127.0.0.1.nip.io',
      'unknown',
      '',
    ]) {
      expect(isLoopback(host), host).toBe(false);
    }
  });

  it("holds Clerk's session tokens to PUBLIC_URL's origin unless CLERK_AUTHORIZED_PARTIES lists origins", () => {
    const clerk = { CLERK_SECRET_KEY: 'sk_test_x', CLERK_PUBLISHABLE_KEY: 'pk_test_x', ALLOW_LOCAL_PAYMENTS: 'true' };
    const parties = (env: NodeJS.ProcessEnv) => {
      const { auth } = loadConfig({ ...base, ...clerk, ...env });
      return auth.mode === 'clerk' ? auth.authorizedParties : undefined;
    };
    expect(parties({ PUBLIC_URL: 'https://app.example.com/shop/' })).toEqual(['https://app.example.com']);
    expect(parties({ PORT: '4000' })).toEqual(['http://localhost:4000']);
    expect(parties({ CLERK_AUTHORIZED_PARTIES: 'https://app.example.com, https://admin.example.com:8443' })).toEqual([
      'https://app.example.com',
      'https://admin.example.com:8443',
    ]);
    for (const listed of ['app.example.com', 'https://app.example.com/', 'https://app.example.com/shop']) {
      expect(errorOf(() => loadConfig({ ...base, ...clerk, CLERK_AUTHORIZED_PARTIES: listed })).variable, listed).toBe(
        'CLERK_AUTHORIZED_PARTIES',
      );
    }
  });

  it('passes CLERK_JWT_TEMPLATE on to the web app, and names it when it is no template name', () => {
    const clerk = { CLERK_SECRET_KEY: 'sk_test_x', CLERK_PUBLISHABLE_KEY: 'pk_test_x', ALLOW_LOCAL_PAYMENTS: 'true' };
    const template = (env: NodeJS.ProcessEnv) => {
      const { auth } = loadConfig({ ...base, ...clerk, ...env });
      return auth.mode === 'clerk' ? auth.jwtTemplate : 'not clerk';
    };
    expect(template({})).toBeUndefined();
    expect(template({ CLERK_JWT_TEMPLATE: 'prodshot-api' })).toBe('prodshot-api');
    for (const bad of ['prodshot api', 'a/b', 'x'.repeat(101)]) {
      const error = errorOf(() => loadConfig({ ...base, ...clerk, CLERK_JWT_TEMPLATE: bad }));
      expect(error.variable, bad).toBe('CLERK_JWT_TEMPLATE');
      expect(error.message).toContain('CLERK_JWT_TEMPLATE');
    }
  });

  it('asks for the key of the hosted model it is told to use', () => {
    expect(errorOf(() => loadConfig({ ...base, IMAGE_MODEL: 'openai' })).variable).toBe('OPENAI_API_KEY');
    expect(errorOf(() => loadConfig({ ...base, IMAGE_MODEL: 'dall-e' })).variable).toBe('IMAGE_MODEL');
  });

  it('uses the packaged cutout weights by default and names CUTOUT_MODEL_PATH when it points at no file', () => {
    expect(loadConfig(base).cutoutModel).toMatchObject({ path: undefined, family: 'isnet' });
    const error = errorOf(() => loadConfig({ ...base, CUTOUT_MODEL_PATH: '/nowhere/isnet.onnx' }));
    expect(error.variable).toBe('CUTOUT_MODEL_PATH');
    expect(error.message).toContain('/nowhere/isnet.onnx');
    expect(errorOf(() => loadConfig({ ...base, CUTOUT_MODEL_FAMILY: 'u2net' })).variable).toBe('CUTOUT_MODEL_FAMILY');
  });

  it('leaves the cutout input size to the model unless CUTOUT_MODEL_INPUT_SIZE names one in range', () => {
    expect(loadConfig(base).cutoutModel.inputSize).toBeUndefined();
    expect(loadConfig({ ...base, CUTOUT_MODEL_INPUT_SIZE: '640' }).cutoutModel.inputSize).toBe(640);
    expect(errorOf(() => loadConfig({ ...base, CUTOUT_MODEL_INPUT_SIZE: '100' })).variable).toBe(
      'CUTOUT_MODEL_INPUT_SIZE',
    );
    expect(errorOf(() => loadConfig({ ...base, CUTOUT_MODEL_INPUT_SIZE: 'large' })).variable).toBe(
      'CUTOUT_MODEL_INPUT_SIZE',
    );
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ ...base, MINIO_ENDPOINT: '' }).storage.driver).toBe('fs');
  });

  it('turns the admin board on only with both operator credentials, naming the missing one', () => {
    expect(loadConfig(base).admin).toBeUndefined();
    expect(loadConfig({ ...base, ADMIN_USER: 'ops', ADMIN_PASSWORD: 'correct-horse-battery' }).admin).toEqual({
      user: 'ops',
      password: 'correct-horse-battery',
    });
    expect(errorOf(() => loadConfig({ ...base, ADMIN_USER: 'ops' })).variable).toBe('ADMIN_PASSWORD');
    expect(errorOf(() => loadConfig({ ...base, ADMIN_PASSWORD: 'correct-horse-battery' })).variable).toBe('ADMIN_USER');
    expect(errorOf(() => loadConfig({ ...base, ADMIN_USER: 'ops', ADMIN_PASSWORD: 'short' })).variable).toBe(
      'ADMIN_PASSWORD',
    );
  });

  it('names a rate limit that is not a positive number', () => {
    expect(loadConfig(base).rateLimits).toEqual({
      generationsPerMinute: 30,
      uploadsPerMinute: 60,
      freeEngineCallsPerMinute: 10,
      iterationsPerMinute: 30,
      exportsPerMinute: 30,
      complianceChecksPerMinute: 60,
      archivesPerMinute: 10,
      paymentsPerMinute: 10,
      apiKeyRequestsPerMinute: 120,
    });
    for (const variable of [
      'RATE_LIMIT_ITERATIONS_PER_MINUTE',
      'RATE_LIMIT_EXPORTS_PER_MINUTE',
      'RATE_LIMIT_COMPLIANCE_CHECKS_PER_MINUTE',
      'RATE_LIMIT_ARCHIVES_PER_MINUTE',
      'RATE_LIMIT_PAYMENTS_PER_MINUTE',
      'RATE_LIMIT_API_KEY_REQUESTS_PER_MINUTE',
    ]) {
      expect(errorOf(() => loadConfig({ ...base, [variable]: '0' })).variable).toBe(variable);
    }
    expect(errorOf(() => loadConfig({ ...base, RATE_LIMIT_UPLOADS_PER_MINUTE: '0' })).variable).toBe(
      'RATE_LIMIT_UPLOADS_PER_MINUTE',
    );
    expect(errorOf(() => loadConfig({ ...base, RATE_LIMIT_FREE_ENGINE_CALLS_PER_MINUTE: '-1' })).variable).toBe(
      'RATE_LIMIT_FREE_ENGINE_CALLS_PER_MINUTE',
    );
  });

  it('gives accounts with nothing 10 free analyses and 10 recommendations a day unless told, and names an allowance below 0', () => {
    expect(loadConfig(base).freeAllowance).toEqual({ analysesPerDay: 10, recommendationsPerDay: 10 });
    expect(
      loadConfig({ ...base, FREE_ANALYSES_PER_DAY: '0', FREE_RECOMMENDATIONS_PER_DAY: '3' }).freeAllowance,
    ).toEqual({ analysesPerDay: 0, recommendationsPerDay: 3 });
    expect(errorOf(() => loadConfig({ ...base, FREE_ANALYSES_PER_DAY: '-1' })).variable).toBe('FREE_ANALYSES_PER_DAY');
    expect(errorOf(() => loadConfig({ ...base, FREE_RECOMMENDATIONS_PER_DAY: 'many' })).variable).toBe(
      'FREE_RECOMMENDATIONS_PER_DAY',
    );
  });

  it('bounds every object-store call and every job attempt, and names a bound that makes no sense', () => {
    const config = loadConfig(base);
    expect(config.storage.timeoutMs).toBe(30_000);
    expect(config.jobs.deadlineMs).toBe(600_000);
    expect(errorOf(() => loadConfig({ ...base, STORAGE_TIMEOUT_MS: '0' })).variable).toBe('STORAGE_TIMEOUT_MS');
    expect(errorOf(() => loadConfig({ ...base, JOB_DEADLINE_MS: 'soon' })).variable).toBe('JOB_DEADLINE_MS');
  });

  it('lets renders run at idle CPU priority unless told otherwise, and names a priority it does not know', () => {
    expect(loadConfig(base).worker.cpuPriority).toBe('idle');
    expect(loadConfig({ ...base, WORKER_CPU_PRIORITY: 'low' }).worker.cpuPriority).toBe('low');
    expect(errorOf(() => loadConfig({ ...base, WORKER_CPU_PRIORITY: 'nice' })).variable).toBe('WORKER_CPU_PRIORITY');
  });
});
