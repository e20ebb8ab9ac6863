import { randomUUID } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { io, type Socket } from 'socket.io-client';
import {
  IDEMPOTENCY_KEY_HEADER,
  type AcceptedResponse,
  type ClientToServerEvents,
  type GenerationDto,
  type ServerToClientEvents,
  type SubscriptionResponse,
} from '@prodshot/contracts';
import { call, paidSeller, uploadPhotos, type WebSeller } from '../bench/web-seller.js';

/**
 * A seller of the containerised stack: signed up through nginx, on the Starter plan (HD shots, a
 * quarter of ultra HD's pixels, so the replica bursts take minutes), with a live socket.
 */
export interface LiveSeller extends WebSeller {
  socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  done: Map<string, 'complete' | 'failed'>;
}

export async function liveSeller(baseUrl: string, name: string): Promise<LiveSeller> {
  const seller = await paidSeller(baseUrl, name, 'starter');
  const socket: LiveSeller['socket'] = io(baseUrl, {
    auth: { token: seller.token },
    transports: ['websocket'],
    reconnection: true,
  });
  const done: LiveSeller['done'] = new Map();
  socket.on('generation:done', (event) => done.set(event.generationId, event.status));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { ...seller, socket, done };
}

export async function uploadPhoto(baseUrl: string, seller: WebSeller, photo: string): Promise<string> {
  const [id] = await uploadPhotos(baseUrl, seller, photo, 1);
  return id!;
}

export async function creditsLeft(baseUrl: string, seller: WebSeller): Promise<number> {
  const balance = await call<SubscriptionResponse>(baseUrl, seller.token, 'GET', '/users/subscription');
  return balance.subscriptionCredits + balance.addOnCredits;
}

/** Starts a paid call with Prefer: respond-async; answers the generation id. */
export async function startGeneration(
  baseUrl: string,
  seller: WebSeller,
  route: string,
  body: object,
): Promise<string> {
  const accepted = await call<AcceptedResponse>(baseUrl, seller.token, 'POST', route, body, {
    [IDEMPOTENCY_KEY_HEADER]: randomUUID(),
    prefer: 'respond-async',
  });
  return accepted.data.generationId;
}

/** Waits for the socket's 'generation:done' (the app's 'Complete!'), then reads the generation as the app does. */
export async function finished(
  baseUrl: string,
  seller: LiveSeller,
  generationId: string,
  timeoutMs: number,
): Promise<GenerationDto> {
  const deadline = Date.now() + timeoutMs;
  while (!seller.done.has(generationId)) {
    if (Date.now() > deadline) throw new Error(`no generation:done for ${generationId} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return (await call<{ data: GenerationDto }>(baseUrl, seller.token, 'GET', `/generations/${generationId}`)).data;
}

/** Fetches a shot through the link the API handed out, as a browser would; answers its bytes. */
export async function downloadShot(url: string): Promise<Buffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  const type = await fileTypeFromBuffer(bytes);
  if (!type?.mime.startsWith('image/'))
    throw new Error(`${url} answered ${bytes.length} bytes that are no image (${type?.mime ?? 'unknown type'})`);
  return bytes;
}
