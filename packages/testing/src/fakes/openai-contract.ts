import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { vendorFixture } from '@prodshot/fixtures';

/** OpenAI's own OpenAPI document, as published (packages/fixtures/SOURCES.md): the contract, not our guess at it. */
export const OPENAI_DOCUMENT = vendorFixture('openai-openapi.json');
const ID = 'openai-openapi.json';

type Json = Record<string, unknown>;
interface Operation {
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref: string } }>; $ref?: string }>;
}

/**
 * OpenAPI 3.1 schemas are JSON Schema 2020-12, where `nullable` means nothing; the document still
 * carries some (some without `type`, which Ajv refuses), so they are dropped and 3.1's meaning holds.
 */
function without3_0Nullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(without3_0Nullable);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== 'nullable')
      .map(([key, value]) => [key, without3_0Nullable(value)]),
  );
}

function loadDocument(): Json & {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Operation['responses'][string]> };
} {
  return without3_0Nullable(JSON.parse(readFileSync(OPENAI_DOCUMENT, 'utf8'))) as ReturnType<typeof loadDocument>;
}

export const document = loadDocument();

/** Ajv as OpenAPI 3.1 wants it: draft 2020-12, the document's vendor keywords ignored, its formats known. */
function compiler(options: { coerceTypes: boolean }): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    coerceTypes: options.coerceTypes,
    formats: { binary: true, unixtime: true, int64: true, double: true, float: true },
  });
  addFormats.default(ajv, ['uri', 'date']);
  ajv.addSchema({ ...document, $id: ID });
  return ajv;
}

const json = compiler({ coerceTypes: false });
// A multipart form carries every field as text; OpenAPI's encoding of a form reads them back by type.
const form = compiler({ coerceTypes: true });

function validator(ajv: Ajv2020, ref: string): ValidateFunction {
  const validate = ajv.getSchema(`${ID}${ref}`);
  if (!validate) throw new Error(`no schema ${ref} in ${OPENAI_DOCUMENT}`);
  return validate;
}

export function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

function operation(method: string, path: string): Operation {
  const found = document.paths[path]?.[method.toLowerCase()];
  if (!found) throw new Error(`${method} ${path} is not an operation of OpenAI's document`);
  return found;
}

/** Errors of a request body against the operation's published request schema (empty when it validates). */
export function requestViolations(
  method: string,
  path: string,
  contentType: 'application/json' | 'multipart/form-data',
  body: unknown,
): string[] {
  const schema = operation(method, path).requestBody?.content[contentType]?.schema;
  if (!schema) return [`${method} ${path} takes no ${contentType} body`];
  const validate = validator(contentType === 'multipart/form-data' ? form : json, schema.$ref);
  return validate(body) ? [] : describeErrors(validate.errors);
}

/** Errors of an answer against the schema the document gives for that status (ErrorResponse for errors it does not list). */
export function responseViolations(method: string, path: string, status: number, body: unknown): string[] {
  const declared = operation(method, path).responses[String(status)];
  const response = declared?.$ref ? document.components.responses[declared.$ref.split('/').pop()!] : declared;
  const ref =
    response?.content?.['application/json']?.schema.$ref ??
    (status >= 400 ? '#/components/schemas/ErrorResponse' : undefined);
  if (!ref) return [`the document gives no JSON answer for ${status} on ${method} ${path}`];
  const validate = validator(json, ref);
  return validate(structuredClone(body)) ? [] : describeErrors(validate.errors);
}

/** A fresh copy of the example the document gives for one of its schemas (x-oaiMeta.example). */
export function documentExample<T = Json>(schema: string): T {
  const example = (document.components.schemas[schema]?.['x-oaiMeta'] as { example?: string } | undefined)?.example;
  if (!example) throw new Error(`no example for ${schema} in ${OPENAI_DOCUMENT}`);
  return JSON.parse(example) as T;
}
