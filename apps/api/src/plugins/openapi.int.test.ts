import { afterEach, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp | undefined;

afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> }; security?: unknown[] }>>;
}

describe('the OpenAPI document at /api/docs', () => {
  it('lists the spec routes with the request schemas they validate against, and no operator endpoints', async () => {
    testApp = await buildTestApp(stack, { env: { ADMIN_USER: 'ops', ADMIN_PASSWORD: 'correct-horse-battery' } });
    const response = await testApp.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<OpenApiDocument>();
    expect(document.openapi).toMatch(/^3\./);
    const spec: [string, string][] = [
      ['/api/health', 'get'],
      ['/api/images/upload', 'post'],
      ['/api/images', 'get'],
      ['/api/images/{id}', 'get'],
      ['/api/images/{id}', 'delete'],
      ['/api/images/generate-product-shots', 'post'],
      ['/api/images/smart-generate-product-shots', 'post'],
      ['/api/images/generate-product-style-recommendations', 'post'],
      ['/api/images/generate-single-product-shot', 'post'],
      ['/api/images/enhance-prompt', 'post'],
      ['/api/images/{id}/remove-background', 'post'],
      ['/api/images/{id}/generate-background', 'post'],
      ['/api/generations/{id}', 'get'],
      ['/api/users/profile', 'get'],
      ['/api/payments/plans', 'get'],
      ['/uploads/{id}', 'get'],
    ];
    for (const [path, method] of spec) expect(document.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();

    // Generated from the TypeBox schema the route validates with, not written by hand.
    const body = document.paths['/api/images/generate-product-shots']!.post!.requestBody!.content['application/json']!.schema;
    expect(Object.keys(body.properties ?? {})).toEqual(expect.arrayContaining(['imageId', 'prompt', 'count', 'backgroundType']));
    expect(document.paths['/api/health']!.get!.security).toEqual([]);

    const paths = Object.keys(document.paths);
    expect(paths.filter((path) => path.startsWith('/admin') || path === '/metrics' || path.startsWith('/api/docs'))).toEqual([]);
  });

  it('serves the interactive docs page at /api/docs', async () => {
    testApp = await buildTestApp(stack);
    const page = await testApp.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger');
  });
});
