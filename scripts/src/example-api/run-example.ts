import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createProdshotClient, formData, type ProdshotClient } from '@prodshot/client';
import { corpusFile } from '@prodshot/fixtures';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

// `npm run example:api`: what an integrator's script does, against a running `npm start`
// (PRODSHOT_URL, default http://localhost:3000): a key and a webhook endpoint made with a browser
// session, then only the key, and the signed webhook says when the shots are ready.

type Generation = Awaited<ReturnType<typeof readGeneration>>;
/** What this example reads of a generation event's body (the envelope README's Webhooks section describes). */
interface GenerationEvent {
  type: 'generation.completed' | 'generation.failed';
  data: { id: string };
}

const baseUrl = process.env.PRODSHOT_URL ?? 'http://localhost:3000';
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const WAIT_MS = 10 * 60_000;

/** What a failed call said, for the error a step throws. */
function refusal(step: string, result: { response: Response; error?: unknown }): Error {
  return new Error(`${step}: ${result.response.status} ${JSON.stringify(result.error)}`);
}

/**
 * The browser part, done here through the embedded sign-in of a deployment without Clerk: a session,
 * a plan (the local payments provider grants it at once), an API key with both scopes, and the
 * receiver's URL registered for generation events (loopback URLs are allowed because `npm start`
 * itself runs on loopback).
 */
async function setUpWithSession(receiver: WebhookReceiver): Promise<string> {
  const signIn = await createProdshotClient({ baseUrl }).POST('/api/dev/sign-in', {
    body: { email: `example-${Date.now()}@prodshot.example`, name: 'API example' },
  });
  if (!signIn.data) throw refusal('sign-in (needs npm start without Clerk keys)', signIn);
  const session = createProdshotClient({ baseUrl, apiKey: signIn.data.token });
  const plan = await session.POST('/api/payments/subscription', { body: { planKey: 'starter' } });
  if (!plan.data) throw refusal('starter plan', plan);
  const key = await session.POST('/api/keys', { body: { name: 'npm run example:api', scopes: ['generate', 'read'] } });
  if (!key.data) throw refusal('API key', key);
  const endpoint = await session.POST('/api/webhooks', {
    body: { url: receiver.url, events: ['generation.completed', 'generation.failed'] },
  });
  if (!endpoint.data) throw refusal('webhook endpoint', endpoint);
  receiver.trust(endpoint.data.secret);
  console.log(`signed in as ${signIn.data.userId}; API key ${key.data.prefix}… created; webhooks to ${receiver.url}`);
  return key.data.key;
}

async function readGeneration(client: ProdshotClient, id: string) {
  const read = await client.GET('/api/generations/{id}', { params: { path: { id } } });
  if (!read.data) throw refusal('read the generation', read);
  return read.data.data;
}

/** The generation once its signed `generation.completed` or `generation.failed` webhook came, read afresh (the event's links may have expired by the time a retry delivers it). */
async function untilFinished(client: ProdshotClient, receiver: WebhookReceiver, id: string): Promise<Generation> {
  const event = await receiver.next((received) => (received.body as GenerationEvent).data.id === id, WAIT_MS);
  console.log(`webhook ${(event.body as GenerationEvent).type} (event ${event.eventId}), signature verified`);
  return readGeneration(client, id);
}

async function saveShots(client: ProdshotClient, generation: Generation): Promise<string> {
  const folder = process.env.EXAMPLE_OUT_DIR ?? path.join(repoRoot, 'bench', 'out', 'example-api', generation.id);
  await mkdir(folder, { recursive: true });
  for (const style of generation.styles.filter((slot) => slot.status === 'complete')) {
    const shot = await client.GET('/api/generations/{id}/styles/{index}/download', {
      params: { path: { id: generation.id, index: style.index } },
      parseAs: 'arrayBuffer',
    });
    if (!shot.data) throw refusal(`download style ${style.index}`, shot);
    const file = path.join(folder, `${style.index}-${style.name.replace(/[^\w-]+/g, '-').toLowerCase()}.jpg`);
    await writeFile(file, Buffer.from(shot.data as ArrayBuffer));
    console.log(`  ${path.relative(repoRoot, file)}`);
  }
  return folder;
}

async function main(): Promise<void> {
  const receiver = await startWebhookReceiver();
  try {
    await run(receiver);
  } finally {
    await receiver.close();
  }
}

async function run(receiver: WebhookReceiver): Promise<void> {
  const client = createProdshotClient({ baseUrl, apiKey: await setUpWithSession(receiver) });

  const photo = corpusFile('products', 'saleor-beanie-1.png');
  const uploaded = await client.POST('/api/images/upload', {
    body: { image: new File([await readFile(photo)], path.basename(photo)) },
    bodySerializer: formData,
  });
  if (!uploaded.data) throw refusal('upload', uploaded);
  console.log(`uploaded ${path.basename(photo)} as image ${uploaded.data._id}`);

  // The same Idempotency-Key on a retry (a lost answer, a crash) answers this generation again: nothing is charged twice.
  const idempotencyKey = randomUUID();
  const started = await client.POST('/api/images/smart-generate-product-shots', {
    body: { imageId: uploaded.data._id, styleCount: 2 },
    params: { header: { 'Idempotency-Key': idempotencyKey } },
  });
  if (!started.data) throw refusal('smart generation', started);
  const { generationId } = started.data.data;
  console.log(`smart generation ${generationId} started (Idempotency-Key ${idempotencyKey}); waiting for it…`);

  const generation = await untilFinished(client, receiver, generationId);
  if (generation.status !== 'complete')
    throw new Error(`generation ${generationId} ${generation.status}: ${generation.error ?? 'no reason given'}`);
  console.log(
    `generation ${generationId} complete: ${generation.styles.map((style) => style.name).join(', ')}; saving the shots:`,
  );
  const folder = await saveShots(client, generation);
  console.log(`shots saved in ${folder}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
