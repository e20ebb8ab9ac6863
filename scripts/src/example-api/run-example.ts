import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createProdshotClient, formData, type ProdshotClient } from '@prodshot/client';
import { corpusFile } from '@prodshot/fixtures';

// `npm run example:api`: what an integrator's script does, against a running `npm start`
// (PRODSHOT_URL, default http://localhost:3000): a key made with a browser session, then only the key.

type Generation = Awaited<ReturnType<typeof readGeneration>>;

const baseUrl = process.env.PRODSHOT_URL ?? 'http://localhost:3000';
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const POLL_MS = 2_000;
const WAIT_MS = 10 * 60_000;

/** What a failed call said, for the error a step throws. */
function refusal(step: string, result: { response: Response; error?: unknown }): Error {
  return new Error(`${step}: ${result.response.status} ${JSON.stringify(result.error)}`);
}

/**
 * The browser part, done here through the embedded sign-in of a deployment without Clerk: a session,
 * a plan (the local payments provider grants it at once), and an API key with both scopes.
 */
async function keyFromSession(): Promise<string> {
  const signIn = await createProdshotClient({ baseUrl }).POST('/api/dev/sign-in', { body: { email: `example-${Date.now()}@prodshot.example`, name: 'API example' } });
  if (!signIn.data) throw refusal('sign-in (needs npm start without Clerk keys)', signIn);
  const session = createProdshotClient({ baseUrl, apiKey: signIn.data.token });
  const plan = await session.POST('/api/payments/subscription', { body: { planKey: 'starter' } });
  if (!plan.data) throw refusal('starter plan', plan);
  const key = await session.POST('/api/keys', { body: { name: 'npm run example:api', scopes: ['generate', 'read'] } });
  if (!key.data) throw refusal('API key', key);
  console.log(`signed in as ${signIn.data.userId}; API key ${key.data.prefix}… created`);
  return key.data.key;
}

async function readGeneration(client: ProdshotClient, id: string) {
  const read = await client.GET('/api/generations/{id}', { params: { path: { id } } });
  if (!read.data) throw refusal('read the generation', read);
  return read.data.data;
}

/** The generation once it has finished, read every POLL_MS: the wait a signed webhook on a local receiver (webhook-receiver.ts) can stand in for. */
async function untilFinished(client: ProdshotClient, id: string): Promise<Generation> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const generation = await readGeneration(client, id);
    if (generation.status === 'complete' || generation.status === 'failed') return generation;
    if (Date.now() > deadline) throw new Error(`generation ${id} still ${generation.status} after ${WAIT_MS / 1000} s`);
    await sleep(POLL_MS);
  }
}

async function saveShots(client: ProdshotClient, generation: Generation): Promise<string> {
  const folder = process.env.EXAMPLE_OUT_DIR ?? path.join(repoRoot, 'bench', 'out', 'example-api', generation.id);
  await mkdir(folder, { recursive: true });
  for (const style of generation.styles.filter((slot) => slot.status === 'complete')) {
    const shot = await client.GET('/api/generations/{id}/styles/{index}/download', { params: { path: { id: generation.id, index: style.index } }, parseAs: 'arrayBuffer' });
    if (!shot.data) throw refusal(`download style ${style.index}`, shot);
    const file = path.join(folder, `${style.index}-${style.name.replace(/[^\w-]+/g, '-').toLowerCase()}.jpg`);
    await writeFile(file, Buffer.from(shot.data as ArrayBuffer));
    console.log(`  ${path.relative(repoRoot, file)}`);
  }
  return folder;
}

async function main(): Promise<void> {
  const client = createProdshotClient({ baseUrl, apiKey: await keyFromSession() });

  const photo = corpusFile('products', 'saleor-beanie-1.png');
  const uploaded = await client.POST('/api/images/upload', { body: { image: new File([await readFile(photo)], path.basename(photo)) }, bodySerializer: formData });
  if (!uploaded.data) throw refusal('upload', uploaded);
  console.log(`uploaded ${path.basename(photo)} as image ${uploaded.data._id}`);

  // The same Idempotency-Key on a retry (a lost answer, a crash) answers this generation again: nothing is charged twice.
  const idempotencyKey = randomUUID();
  const started = await client.POST('/api/images/smart-generate-product-shots', { body: { imageId: uploaded.data._id, styleCount: 2 }, params: { header: { 'Idempotency-Key': idempotencyKey } } });
  if (!started.data) throw refusal('smart generation', started);
  const { generationId } = started.data.data;
  console.log(`smart generation ${generationId} started (Idempotency-Key ${idempotencyKey}); waiting for it…`);

  const generation = await untilFinished(client, generationId);
  if (generation.status !== 'complete') throw new Error(`generation ${generationId} ${generation.status}: ${generation.error ?? 'no reason given'}`);
  console.log(`generation ${generationId} complete: ${generation.styles.map((style) => style.name).join(', ')}; saving the shots:`);
  const folder = await saveShots(client, generation);
  console.log(`shots saved in ${folder}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
