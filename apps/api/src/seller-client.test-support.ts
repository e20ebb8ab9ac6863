// The test app driven as a seller drives it: sign-in, plan and credits, uploads, and a live socket.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, PaidPlanId, ServerToClientEvents } from '@prodshot/contracts';
import { CreditsRepository, SubscriptionsRepository } from '@prodshot/db';
import type { TestApp } from './test-app.test-support.js';

export interface Session {
  token: string;
  userId: string;
  auth: { authorization: string };
}

/** Signs in through the embedded dev sign-in, the same path the web app uses; with `plan`, the seller is on it. */
export async function signIn(testApp: TestApp, email: string, plan?: PaidPlanId): Promise<Session> {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/dev/sign-in',
    payload: { email, name: email.split('@')[0] },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const { token, userId } = response.json<{ token: string; userId: string }>();
  if (plan) await subscribe(testApp, userId, plan);
  return { token, userId, auth: { authorization: `Bearer ${token}` } };
}

/**
 * Puts a seller on a plan, active, without granting its allowance: the state of a seller who has
 * spent this period's images, so a test's credit counts stay its own.
 */
export async function subscribe(testApp: TestApp, userId: string, plan: PaidPlanId): Promise<void> {
  await new SubscriptionsRepository(testApp.deps.db).activate(userId, { plan, status: 'active', provider: 'local' });
}

export async function grantCredits(testApp: TestApp, userId: string, amount: number): Promise<void> {
  await new CreditsRepository(testApp.deps.db).grantAddOn({
    userId,
    amount,
    idempotencyKey: `test-grant:${userId}:${Date.now()}:${Math.random()}`,
  });
}

export async function balanceOf(testApp: TestApp, userId: string): Promise<number> {
  const balance = await new CreditsRepository(testApp.deps.db).balance(userId);
  return balance.subscriptionCredits + balance.addOnCredits;
}

/** A multipart body by hand, so tests can also send what a browser never would. */
export function multipartBody(
  parts: { name: string; filename?: string; contentType?: string; data: Buffer | string }[],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----prodshot${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const type = part.contentType ? `\r\nContent-Type: ${part.contentType}` : '';
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`),
      Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function upload(testApp: TestApp, session: Session, file: string | Buffer, filename = 'product.png') {
  const data = typeof file === 'string' ? await readFile(file) : file;
  const name = typeof file === 'string' ? path.basename(file) : filename;
  const body = multipartBody([{ name: 'image', filename: name, contentType: 'application/octet-stream', data }]);
  return testApp.app.inject({
    method: 'POST',
    url: '/api/images/upload',
    payload: body.payload,
    headers: { ...body.headers, ...session.auth },
  });
}

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface RecordedEvent {
  event: keyof ServerToClientEvents;
  payload: Record<string, unknown>;
  at: number;
}

/** A real socket.io client on the listening test app, recording every event it receives. */
export async function connectSocket(
  testApp: TestApp,
  token: string,
): Promise<{ socket: ClientSocket; events: RecordedEvent[] }> {
  const address = testApp.app.server.address();
  if (!address || typeof address === 'string')
    throw new Error('the test app is not listening (buildTestApp({ listen: true }))');
  const socket: ClientSocket = io(`http://127.0.0.1:${address.port}`, {
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
  });
  const events: RecordedEvent[] = [];
  socket.onAny((event: keyof ServerToClientEvents, payload: Record<string, unknown>) =>
    events.push({ event, payload, at: Date.now() }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
  });
  return { socket, events };
}

export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs: number,
  what: string,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What `prodshot_credits_reserved_total` reads on the test app's operator listener. */
export async function creditsReservedTotal(testApp: TestApp): Promise<number> {
  const text = (await testApp.ops.inject({ method: 'GET', url: '/metrics' })).body;
  const line = text.split('\n').find((l) => /^prodshot_credits_reserved_total[ {]/.test(l));
  return Number(line!.slice(line!.lastIndexOf(' ') + 1));
}

/** Each balance `credits:update` announced to a recorded socket, plan and add-on credits together. */
export function announcedBalances(events: RecordedEvent[]): number[] {
  return events
    .filter((e) => e.event === 'credits:update')
    .map((e) => Number(e.payload.subscriptionCredits) + Number(e.payload.addOnCredits));
}
