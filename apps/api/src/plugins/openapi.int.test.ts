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
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
        responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
        security?: unknown[];
      }
    >
  >;
}

/** 'GET /api/x' for every operation with no success (2xx or 3xx) answer whose body has a schema. */
function operationsWithoutSuccessSchema(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => {
        const successes = Object.entries(operation.responses ?? {}).filter(([status]) => /^[23]\d\d$/.test(status));
        return !successes.some(([, response]) => Object.values(response.content ?? {}).some((media) => media.schema !== undefined));
      })
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
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

  it('documents a response schema for the success answer of every operation', async () => {
    // Stripe mode, so that the webhook route is in the document too.
    testApp = await buildTestApp(stack, { env: { STRIPE_SECRET_KEY: 'sk_test_openapi', STRIPE_WEBHOOK_SECRET: 'whsec_openapi' } });
    const document = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json<OpenApiDocument>();
    expect(Object.keys(document.paths).length).toBeGreaterThan(20);
    expect(operationsWithoutSuccessSchema(document)).toEqual([]);
  });

  it('serves the interactive docs page at /api/docs', async () => {
    testApp = await buildTestApp(stack);
    const page = await testApp.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger');
  });
});
