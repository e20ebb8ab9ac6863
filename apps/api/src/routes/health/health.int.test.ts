import { afterEach, describe, expect, it, inject } from 'vitest';
import type { ReadinessResponse } from '@prodshot/contracts';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp | undefined;

afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

const deadRedis = 'redis://127.0.0.1:1';
const deadPostgres = 'postgres://postgres:postgres@127.0.0.1:1/none';

describe('GET /api/health on the public port', () => {
  it('answers its status and nothing else: no dependency, error or mode', async () => {
    testApp = await buildTestApp(stack);
    const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 degraded without naming Redis when Redis does not answer', async () => {
    testApp = await buildTestApp(stack, { redisUrl: deadRedis });
    const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'degraded' });
    expect(response.body).not.toMatch(/redis|ECONNREFUSED|127\.0\.0\.1/i);
  });
});

describe('the ops listener', () => {
  it('reports readiness on /health with each dependency and the modes, and liveness on /live', async () => {
    testApp = await buildTestApp(stack);
    const ready = await testApp.ops.inject({ method: 'GET', url: '/health' });
    expect(ready.statusCode).toBe(200);
    const body = ready.json<ReadinessResponse>();
    expect(body.status).toBe('ok');
    expect(Object.keys(body.dependencies).sort()).toEqual(['postgres', 'redis', 'storage']);
    for (const state of Object.values(body.dependencies)) expect(state.status).toBe('ok');
    expect(body.modes).toEqual({ auth: 'embedded', payments: 'local', imageModel: 'local', storage: 'fs' });
    const live = await testApp.ops.inject({ method: 'GET', url: '/live' });
    expect(live.statusCode).toBe(200);
    expect(live.headers['cache-control']).toBe('no-store');
  });

  it('is not ready but stays live while Redis does not answer, and names Redis', async () => {
    testApp = await buildTestApp(stack, { redisUrl: deadRedis });
    const ready = await testApp.ops.inject({ method: 'GET', url: '/health' });
    expect(ready.statusCode).toBe(503);
    const body = ready.json<ReadinessResponse>();
    expect(body.status).toBe('degraded');
    expect(body.dependencies.redis!.status).toBe('error');
    expect(body.dependencies.postgres!.status).toBe('ok');
    expect((await testApp.ops.inject({ method: 'GET', url: '/live' })).statusCode).toBe(200);
  });

  it('is not ready but stays live while Postgres does not answer, and names Postgres', async () => {
    testApp = await buildTestApp(stack, { databaseUrl: deadPostgres });
    const ready = await testApp.ops.inject({ method: 'GET', url: '/health' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json<ReadinessResponse>().dependencies.postgres!.status).toBe('error');
    expect((await testApp.ops.inject({ method: 'GET', url: '/live' })).statusCode).toBe(200);
  });

  it('serves the metrics and the operator board, which the public port answers 404 for', async () => {
    testApp = await buildTestApp(stack, { env: { ADMIN_USER: 'ops', ADMIN_PASSWORD: 'correct-horse-battery' } });
    expect((await testApp.ops.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
    expect((await testApp.ops.inject({ method: 'GET', url: '/admin/queues' })).statusCode).toBe(401);
    for (const url of ['/metrics', '/admin/queues', '/health', '/live']) {
      expect((await testApp.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });
});
