import { writeFile } from 'node:fs/promises';
import { CLIENT_SCHEMA_FILE, clientSchemaSource } from './client-schema.js';

// `npm run generate --workspace @prodshot/client`: rewrites the client's types from the API's routes.
await writeFile(CLIENT_SCHEMA_FILE, await clientSchemaSource());
console.log(`wrote ${CLIENT_SCHEMA_FILE}`);
