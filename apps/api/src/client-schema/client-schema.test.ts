import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CLIENT_SCHEMA_FILE, clientSchemaSource } from './client-schema.js';

describe("@prodshot/client's generated types", () => {
  it('are what the API document generates today: regenerate with `npm run generate --workspace @prodshot/client`', async () => {
    const committed = await readFile(CLIENT_SCHEMA_FILE, 'utf8');
    expect(
      committed === (await clientSchemaSource()),
      'packages/client/src/schema.d.ts is stale: run `npm run generate --workspace @prodshot/client`',
    ).toBe(true);
  }, 60_000);
});
