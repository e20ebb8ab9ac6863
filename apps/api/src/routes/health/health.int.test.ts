import { afterEach, describe, expect, it, inject } from 'vitest';
import type { HealthResponse } from '@prodshot/contracts';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp | undefined;

afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

describe('GET /api/health', () => {
  it('reports postgres, redis and storage ok when each answers', async () => {
    testApp = await buildTestApp(stack);
    const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    const body = response.json<HealthResponse>();
    expect(body.status).toBe('ok');
    expect(body.dependencies.postgres.status).toBe('ok');
    expect(body.dependencies.redis.status).toBe('ok');
    expect(body.dependencies.storage).toMatchObject({ status: 'ok', driver: 'fs' });
    expect(body.modes).toEqual({ auth: 'embedded', payments: 'local', imageModel: 'local' });
  });

  it('answers 503 and names Redis when Redis does not answer', async () => {
    testApp = await buildTestApp(stack, { redisUrl: 'redis://127.0.0.1:1' });
    const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    const body = response.json<HealthResponse>();
    expect(body.status).toBe('degraded');
    expect(body.dependencies.redis.status).toBe('error');
    expect(body.dependencies.postgres.status).toBe('ok');
  });

  it('answers 503 and names Postgres when the database does not answer', async () => {
    testApp = await buildTestApp(stack, { databaseUrl: 'postgres://postgres:postgres@127.0.0.1:1/none' });
    const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json<HealthResponse>().dependencies.postgres.status).toBe('error');
  });
});
