import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { io, type Socket } from 'socket.io-client';
import { Agent, request } from 'undici';
import type { ClientToServerEvents, PaidPlanId, ServerToClientEvents } from '@prodshot/contracts';
import { CreditsRepository, SubscriptionsRepository, type Db } from '@prodshot/db';

export interface Seller {
  token: string;
  userId: string;
  imageId: string;
  socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  /** Every event received, with the client's receive time. */
  events: { event: string; payload: { at: number } & Record<string, unknown>; receivedAt: number }[];
}

/** A simulated seller: signed in, with credits, one uploaded product photo and a live socket. */
export async function newSeller(baseUrl: string, db: Db, n: number, product: string, credits = 10_000): Promise<Seller> {
  const signIn = await fetch(`${baseUrl}/api/dev/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `seller${n}-${Date.now()}@bench.example`, name: `Seller ${n}` }),
  });
  const { token, userId } = (await signIn.json()) as { token: string; userId: string };
  await new CreditsRepository(db).grantAddOn({ userId, amount: credits, idempotencyKey: `bench-grant:${userId}` });
  const imageId = await uploadPhoto(baseUrl, token, await readFile(product), path.basename(product));
  const socket: Seller['socket'] = io(baseUrl, { auth: { token }, transports: ['websocket'], reconnection: false });
  const events: Seller['events'] = [];
  socket.onAny((event: string, payload: Seller['events'][number]['payload']) => events.push({ event, payload, receivedAt: Date.now() }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { token, userId, imageId, socket, events };
}

/** Puts a seller on a plan (its quality, features and queue priority), keeping the bench's own credits. */
export async function putOnPlan(db: Db, seller: Seller, plan: PaidPlanId): Promise<void> {
  await new SubscriptionsRepository(db).activate(seller.userId, { plan, status: 'active', provider: 'local' });
}

/**
 * Uploads a photo as the web app does; answers the image id. Sellers created all at once are more
 * uploads than the API decodes and queues (UPLOAD_DECODE_*): a 503 is sent again after its Retry-After.
 */
export async function uploadPhoto(baseUrl: string, token: string, bytes: Buffer, name: string): Promise<string> {
  for (;;) {
    const form = new FormData();
    form.append('image', new Blob([bytes]), name);
    const uploaded = await fetch(`${baseUrl}/api/images/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    if (uploaded.status === 503) {
      await uploaded.body?.cancel();
      await sleep(Number(uploaded.headers.get('retry-after')) * 1000);
      continue;
    }
    if (uploaded.status !== 201) throw new Error(`upload failed: ${uploaded.status} ${await uploaded.text()}`);
    return ((await uploaded.json()) as { _id: string })._id;
  }
}

/**
 * The load client shares the machine's cores with the stack it measures: undici's request costs
 * about half the CPU of fetch per call (1.5 against 2.8 ms here), so it disturbs less what it times.
 */
const client = new Agent({ connections: 128, keepAliveTimeout: 30_000 });

export async function post(
  baseUrl: string,
  seller: Seller,
  url: string,
  body: object,
  async = true,
  headers: Record<string, string> = {},
): Promise<{ status: number; ms: number; json: Record<string, unknown>; retryAfter: string | undefined }> {
  const started = performance.now();
  const response = await request(`${baseUrl}${url}`, {
    method: 'POST',
    dispatcher: client,
    headers: { authorization: `Bearer ${seller.token}`, 'content-type': 'application/json', ...(async ? { prefer: 'respond-async' } : {}), ...headers },
    body: JSON.stringify(body),
  });
  const json = (await response.body.json()) as Record<string, unknown>;
  const retryAfter = response.headers['retry-after'];
  return { status: response.statusCode, ms: performance.now() - started, json, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter };
}

export function generationIdOf(result: { json: Record<string, unknown> }): string {
  return (result.json.data as { generationId: string }).generationId;
}

/** The background the bench's sellers ask for. */
export const STYLE_PROMPT = 'Polished marble countertop, soft window light';

/** Polls `check` every 20 ms until it answers, or fails after `timeoutMs` naming what it waited for. */
export async function until<T>(check: () => Promise<T | null | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The owner's socket event announcing the generation done, once it came: no database polling loads the machine under test. */
export function doneEvent(seller: Seller, generationId: string) {
  return seller.events.find((e) => e.event === 'generation:done' && e.payload.generationId === generationId);
}

export function isDone(seller: Seller, generationId: string): boolean {
  return doneEvent(seller, generationId) !== undefined;
}
