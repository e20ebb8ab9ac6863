import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, VIEWPORTS } from './support/browser.js';
import {
  callApi,
  expectNoAxeViolations,
  signUp,
  startStackWithPage,
  stopStackWithPage,
  uploadViaApi,
} from './support/session.js';
import type { RunningStack } from './support/stack.js';

/**
 * Profile → Webhooks in Chromium against the built stack (on loopback, so a loopback receiver is
 * allowed): an endpoint added at a receiver in this process, its secret shown once, a generation's
 * signed delivery received and listed, then sent again with the same event id.
 */

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let stack: RunningStack;
let browser: Browser;
let page: Page;
let receiver: Server;
const received: Received[] = [];

beforeAll(async () => {
  ({ stack, browser, page } = await startStackWithPage());
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
}, 180_000);

afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
  await stopStackWithPage({ stack, browser });
}, 60_000);

async function pictureBothWidths(name: string): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page, `${name} at ${viewport.width} px`);
    await screenshot(page, name);
  }
}

/** What a receiver does: the HMAC-SHA256 of "t.body" with the secret, against v1. */
function signedBy(secret: string, delivery: Received): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(delivery.headers['prodshot-signature']));
  return (
    match !== null && createHmac('sha256', secret).update(`${match[1]}.${delivery.body}`).digest('hex') === match[2]
  );
}

async function productPhoto(): Promise<number[]> {
  const bottle = await sharp({ create: { width: 180, height: 360, channels: 3, background: '#2f6f8f' } })
    .png()
    .toBuffer();
  return [
    ...(await sharp({ create: { width: 600, height: 600, channels: 3, background: '#f1efe9' } })
      .composite([{ input: bottle, left: 210, top: 120 }])
      .png()
      .toBuffer()),
  ];
}

describe('webhooks on the profile', () => {
  it('adds an endpoint with its secret shown once, receives a signed generation.completed, lists it and sends it again', async () => {
    await signUp(page, 'Wren Webhooks', 'wren-webhooks@example.com');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/prodshot`;
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'Webhooks' });
    await section.getByText('No webhook endpoints yet.').waitFor();

    await section.getByLabel('Endpoint URL').fill(url);
    await section.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = section.getByTestId('new-webhook-secret');
    await shown.waitFor();
    const secret = (await shown.textContent()) ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    await section.getByRole('button', { name: 'Copy' }).click();
    await section.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const list = section.getByRole('list', { name: 'Your webhook endpoints' });
    await list.getByText(url).waitFor();
    await pictureBothWidths('webhooks-added');

    await section.getByRole('button', { name: 'I have copied it' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret);

    // A generation through the API, as an integrator makes one: its completion comes to the receiver.
    expect(
      (
        await callApi(
          page,
          'POST',
          '/api/payments/credits',
          { planKey: 'addon-100' },
          { 'idempotency-key': crypto.randomUUID() },
        )
      ).status,
    ).toBe(200);
    await uploadViaApi(page, await productPhoto(), 'hook-bottle');
    const { json } = await callApi(page, 'GET', '/api/images?limit=1');
    const imageId = (json as { data: { _id: string }[] }).data[0]!._id;
    const started = await callApi(
      page,
      'POST',
      '/api/images/generate-product-shots',
      { imageId, backgroundType: 'studio', count: 1 },
      { prefer: 'respond-async', 'idempotency-key': crypto.randomUUID() },
    );
    expect(started.status).toBe(202);
    const generationId = (started.json as { data: { generationId: string } }).data.generationId;
    await expect.poll(() => received.length, { timeout: 120_000, interval: 500 }).toBe(1);
    const [delivery] = received;
    expect(signedBy(secret, delivery!)).toBe(true);
    const event = JSON.parse(delivery!.body) as { id: string; type: string; data: { id: string; status: string } };
    expect(event).toMatchObject({ type: 'generation.completed', data: { id: generationId, status: 'complete' } });
    expect(delivery!.headers['prodshot-event-id']).toBe(event.id);

    await page.reload();
    await list.getByRole('button', { name: 'Recent deliveries' }).click();
    const deliveries = section.getByRole('list', { name: `Deliveries to ${url}` });
    await deliveries.getByText('Delivered').waitFor({ timeout: 15_000 });
    await deliveries.getByText(/1 attempt · HTTP 204/).waitFor();
    await pictureBothWidths('webhooks-delivered');

    await deliveries.getByRole('button', { name: /^Send again: Generation completed of / }).click();
    await expect.poll(() => received.length, { timeout: 30_000, interval: 250 }).toBe(2);
    expect(received[1]!.headers['prodshot-event-id']).toBe(event.id);
    expect(received[1]!.body).toBe(delivery!.body);
    expect(signedBy(secret, received[1]!)).toBe(true);
    await deliveries.getByText(/2 attempts · HTTP 204/).waitFor({ timeout: 15_000 });
  }, 300_000);
});
