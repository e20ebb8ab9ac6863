import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { buildOpenApiDocument } from './openapi-document.js';

/** Where @prodshot/client keeps the generated types (committed, so the client builds without the API). */
export const CLIENT_SCHEMA_FILE = fileURLToPath(
  new URL('../../../../packages/client/src/schema.d.ts', import.meta.url),
);

const BLOB = ts.factory.createTypeReferenceNode('Blob');

const HEADER = [
  "// Generated from the Prodshot API's OpenAPI document by `npm run generate --workspace @prodshot/client`",
  '// (apps/api/src/client-schema). Do not edit: a test fails when this file and the document differ.',
  '',
].join('\n');

/** The TypeScript types of the API's document as @prodshot/client holds them. */
export async function clientSchemaSource(): Promise<string> {
  const document = await buildOpenApiDocument();
  const ast = await openapiTS(document as unknown as OpenAPI3, {
    silent: true,
    // A file sent or received is a Blob in fetch's hands (an upload's part, a download's body).
    transform: (schema) => (schema.format === 'binary' ? BLOB : undefined),
  });
  return HEADER + astToString(ast);
}
