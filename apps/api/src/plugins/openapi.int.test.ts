import { afterEach, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp | undefined;

afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

interface OpenApiResponse {
  description: string;
  content?: Record<string, { schema?: { $ref?: string } }>;
  headers?: Record<string, unknown>;
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; schema?: object }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses?: Record<string, OpenApiResponse>;
  security?: unknown[];
}

interface OpenApiDocument {
  openapi: string;
  info: { description: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  security?: unknown[];
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, { type: string; scheme?: string; description?: string }>;
  };
}

/** Every operation of the document as [method, path, operation]. */
function operations(document: OpenApiDocument): [string, string, OpenApiOperation][] {
  return Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]): [string, string, OpenApiOperation] => [
      method,
      path,
      operation,
    ]),
  );
}

/** An operation needs the bearer credential unless it says `security: []`; the document's default is bearerAuth. */
const isSecured = (operation: OpenApiOperation) => operation.security === undefined || operation.security.length > 0;

/** A URL for an operation's path template, any parameter filled with a value of its shape. */
const callable = (path: string) => path.replace(/\{index\}/g, '0').replace(/\{[^}]+\}/g, crypto.randomUUID());

/** Error statuses whose body is the operation's own report, not an error: the health check's "degraded". */
const OWN_ERROR_BODIES = new Set(['GET /api/health 503']);

/** Stripe mode, so that the Stripe webhook route is in the document too. */
const STRIPE_ENV = { STRIPE_SECRET_KEY: 'sk_test_openapi', STRIPE_WEBHOOK_SECRET: 'whsec_openapi' };

/** 'GET /api/x' for every operation with no success (2xx or 3xx) answer whose body has a schema. */
function operationsWithoutSuccessSchema(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => {
        const successes = Object.entries(operation.responses ?? {}).filter(([status]) => /^[23]\d\d$/.test(status));
        return !successes.some(([, response]) =>
          Object.values(response.content ?? {}).some((media) => media.schema !== undefined),
        );
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
    for (const [path, method] of spec)
      expect(document.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();

    // Generated from the TypeBox schema the route validates with, not written by hand.
    const body =
      document.paths['/api/images/generate-product-shots']!.post!.requestBody!.content['application/json']!.schema;
    expect(Object.keys(body.properties ?? {})).toEqual(
      expect.arrayContaining(['imageId', 'prompt', 'count', 'backgroundType']),
    );
    expect(document.paths['/api/health']!.get!.security).toEqual([]);

    const paths = Object.keys(document.paths);
    expect(
      paths.filter((path) => path.startsWith('/admin') || path === '/metrics' || path.startsWith('/api/docs')),
    ).toEqual([]);
  });

  it('documents a response schema for the success answer of every operation', async () => {
    testApp = await buildTestApp(stack, { env: STRIPE_ENV });
    const document = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json<OpenApiDocument>();
    expect(Object.keys(document.paths).length).toBeGreaterThan(20);
    expect(operationsWithoutSuccessSchema(document)).toEqual([]);
  });

  it('takes the bearer scheme (session token or API key) on exactly the operations that answer 401 without one', async () => {
    testApp = await buildTestApp(stack, { env: STRIPE_ENV });
    const document = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json<OpenApiDocument>();
    const scheme = document.components.securitySchemes.bearerAuth!;
    expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(scheme.description).toMatch(/session token/);
    expect(scheme.description).toMatch(/API key \(`psk_live_…`/);
    expect(document.security).toEqual([{ bearerAuth: [] }]);

    const wrong: string[] = [];
    for (const [method, path, operation] of operations(document)) {
      const response = await testApp.app.inject({ method: method.toUpperCase() as 'GET', url: callable(path) });
      if ((response.statusCode === 401) !== isSecured(operation))
        wrong.push(
          `${method.toUpperCase()} ${path}: ${isSecured(operation) ? 'secured' : 'public'} but answered ${response.statusCode}`,
        );
    }
    expect(wrong).toEqual([]);
    expect(operations(document).filter(([, , operation]) => !isSecured(operation)).length).toBeGreaterThan(3);
  });

  it('declares the error answers of every operation through shared components that resolve, the app-wide ones included', async () => {
    testApp = await buildTestApp(stack, { env: STRIPE_ENV });
    const document = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json<OpenApiDocument>();
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['ApiError', 'InsufficientCreditsError', 'PlanFeatureForbiddenError']),
    );
    const problems: string[] = [];
    for (const [method, path, operation] of operations(document)) {
      const name = `${method.toUpperCase()} ${path}`;
      const statuses = Object.keys(operation.responses ?? {});
      const expected = isSecured(operation) ? ['401', '403', '429', '503'] : ['503'];
      for (const status of expected)
        if (!statuses.includes(status)) problems.push(`${name} does not declare ${status}`);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (Number(status) < 400 || OWN_ERROR_BODIES.has(`${name} ${status}`)) continue;
        const ref = response.content?.['application/json']?.schema?.$ref ?? '';
        const component = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
        if (!component || !(component in document.components.schemas))
          problems.push(`${name} ${status}: ${JSON.stringify(response.content)} is not a resolving $ref`);
        if (response.description === 'Default Response') problems.push(`${name} ${status} has no description`);
      }
      if (operation.responses?.['429'] && !operation.responses['429'].headers?.['Retry-After'])
        problems.push(`${name} 429 does not list Retry-After`);
    }
    expect(problems).toEqual([]);
    // The calls that read an Idempotency-Key list it.
    for (const [path, method] of [
      ['/api/images/smart-generate-product-shots', 'post'],
      ['/api/images/upload', 'post'],
      ['/api/batches', 'post'],
    ] as const) {
      expect(document.paths[path]![method]!.parameters, `${method} ${path}`).toContainEqual(
        expect.objectContaining({
          in: 'header',
          name: 'Idempotency-Key',
          schema: expect.objectContaining({ maxLength: 200 }),
        }),
      );
    }
    // Paid calls reference the richer 402 body.
    expect(
      document.paths['/api/images/smart-generate-product-shots']!.post!.responses!['402']!.content!['application/json']!
        .schema,
    ).toEqual({ $ref: '#/components/schemas/InsufficientCreditsError' });
  });

  it('serves the integration guide, in the document and on its own page', async () => {
    testApp = await buildTestApp(stack);
    const document = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json<OpenApiDocument>();
    const guide = await testApp.app.inject({ method: 'GET', url: '/api/docs/guide' });
    expect(guide.statusCode).toBe(200);
    expect(guide.headers['content-type']).toContain('text/markdown');
    expect(document.info.description).toBe(guide.body);
    for (const step of [
      'Profile → API keys',
      '/api/images/upload',
      '/api/images/smart-generate-product-shots',
      'Idempotency-Key',
      'Prodshot-Signature: t=<unix seconds>,v1=',
      'Prodshot-Event-Id',
      'timingSafeEqual',
      'hmac.compare_digest',
      '/api/generations/{id}/styles/{index}/download',
    ]) {
      expect(guide.body, step).toContain(step);
    }
    // Every operation the guide names (`POST /api/…`) is one the document lists.
    const named = [...guide.body.matchAll(/`(GET|POST|DELETE) (\/[^`?\s]+)/g)].map(
      ([, method, path]) => [method!.toLowerCase(), path!] as const,
    );
    expect(named.length).toBeGreaterThanOrEqual(4);
    expect(named.filter(([method, path]) => !document.paths[path]?.[method])).toEqual([]);
  });

  it('serves the interactive docs page at /api/docs', async () => {
    testApp = await buildTestApp(stack);
    const page = await testApp.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger');
  });
});
