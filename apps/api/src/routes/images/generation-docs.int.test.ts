import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;

type Operation = {
  parameters?: { name: string; in: string }[];
  security?: unknown[];
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};
let paths: Record<string, Record<string, Operation>>;
type Schema = { $ref?: string; properties?: Record<string, unknown> };
let schemas: Record<string, Schema>;

beforeAll(async () => {
  testApp = await buildTestApp(stack);
  ({
    paths,
    components: { schemas },
  } = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
    paths: typeof paths;
    components: { schemas: typeof schemas };
  }>());
});

afterAll(async () => {
  await testApp.close();
});

/** What the app may answer on any operation (an outage's 503), and on any that takes a credential (401, a key's scope 403, a key's own limit 429). */
const APP_WIDE = { public: ['503'], secured: ['401', '403', '429', '503'] };

/** Every operation of the generation side, with the statuses it answers itself. */
const OPERATIONS: [method: string, path: string, statuses: string[]][] = [
  ['post', '/api/images/upload', ['201', '400', '413', '415', '422', '429', '502', '503', '504']],
  ['get', '/api/images', ['200', '400']],
  ['get', '/api/images/recent/generations', ['200', '400']],
  ['get', '/api/images/{id}', ['200', '404']],
  ['delete', '/api/images/{id}', ['200', '404']],
  ['get', '/api/images/{id}/subject', ['200', '402', '404']],
  ['post', '/api/images/{id}/outline', ['200', '400', '404', '409', '422', '429', '502', '504']],
  ['post', '/api/images/{id}/outline/confirm', ['200', '404', '409', '429']],
  ['put', '/api/images/{id}/title', ['200', '400', '404']],
  [
    'post',
    '/api/images/generate-product-shots',
    ['200', '202', '400', '402', '404', '409', '422', '429', '502', '504'],
  ],
  ['post', '/api/images/smart-generate-product-shots', ['202', '400', '402', '404', '409', '422', '429', '502', '504']],
  [
    'post',
    '/api/images/generate-product-style-recommendations',
    ['200', '202', '400', '402', '404', '429', '502', '504'],
  ],
  [
    'post',
    '/api/images/generate-single-product-shot',
    ['200', '202', '400', '402', '404', '409', '422', '429', '502', '504'],
  ],
  ['post', '/api/images/enhance-prompt', ['200', '400', '403', '429', '502']],
  [
    'post',
    '/api/images/{id}/remove-background',
    ['200', '202', '400', '402', '404', '409', '422', '429', '502', '504'],
  ],
  [
    'post',
    '/api/images/{id}/generate-background',
    ['200', '202', '400', '402', '404', '409', '422', '429', '502', '504'],
  ],
  ['get', '/api/generations/{id}', ['200', '404']],
  ['get', '/api/generations/{id}/styles/{index}/download', ['200', '400', '404']],
  ['get', '/api/generations/{id}/compliance', ['200', '400', '404', '409', '429', '502', '503']],
  ['post', '/api/generations/{id}/outputs/{index}/more-like-this', ['202', '400', '402', '404', '409', '422', '429']],
  ['post', '/api/generations/{id}/styles/{index}/retry', ['202', '400', '402', '404', '409', '422', '429']],
  ['post', '/api/batches', ['202', '400', '402', '404', '409', '422', '429']],
  ['get', '/api/batches/{id}', ['200', '400', '404']],
  ['get', '/api/batches/{id}/archive', ['200', '400', '401', '403', '404', '409', '429']],
  ['post', '/api/exports', ['200', '400', '404', '409', '429', '502', '503']],
  ['get', '/api/exports/download', ['200', '400', '404', '409', '502', '503']],
];

describe('the OpenAPI document of the generation side', () => {
  it.each(OPERATIONS)(
    'documents %s %s with a response schema for every status it answers',
    (method, path, statuses) => {
      const operation = paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      // The document's security applies unless an operation clears it (`security: []`: a public one).
      const appWide = operation!.security?.length === 0 ? APP_WIDE.public : APP_WIDE.secured;
      expect(Object.keys(operation!.responses).sort()).toEqual([...new Set([...statuses, ...appWide])].sort());
      for (const status of statuses)
        expect(operation!.responses[status]!.content, `${method} ${path} ${status}`).toBeDefined();
    },
  );

  it('names the path parameters of every operation that has them', () => {
    for (const [method, path] of OPERATIONS) {
      const named = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const documented = (paths[path]![method]!.parameters ?? [])
        .filter((parameter) => parameter.in === 'path')
        .map((parameter) => parameter.name);
      expect(documented.sort(), `${method} ${path}`).toEqual(named.sort());
    }
  });

  it('documents the refusals that carry more than the common error shape with their fields', () => {
    // Error bodies are shared components, referenced by $ref.
    const resolved = (schema: Schema): Schema =>
      schema.$ref ? schemas[schema.$ref.replace('#/components/schemas/', '')]! : schema;
    const fields = (path: string, method: string, status: string) =>
      Object.keys(
        resolved(paths[path]![method]!.responses[status]!.content!['application/json']!.schema).properties ?? {},
      );
    expect(fields('/api/images/generate-product-shots', 'post', '402')).toEqual(
      expect.arrayContaining(['needed', 'available', 'shortfall', 'buyCreditsUrl']),
    );
    expect(fields('/api/images/generate-product-shots', 'post', '504')).toContain('generationId');
    for (const [path, method] of [
      ['/api/images/{id}/subject', 'get'],
      ['/api/images/generate-product-style-recommendations', 'post'],
    ] as const) {
      expect(fields(path, method, '402'), `${method} ${path}: a spent free allowance`).toEqual(
        expect.arrayContaining(['needed', 'available', 'shortfall', 'buyCreditsUrl']),
      );
    }
    expect(fields('/api/images/enhance-prompt', 'post', '403')).toEqual(
      expect.arrayContaining(['feature', 'upgradeUrl']),
    );
    expect(fields('/api/exports', 'post', '400')).toContain('formats');
  });
});
