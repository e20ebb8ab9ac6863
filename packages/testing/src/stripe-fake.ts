import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** ../shared/vendor-fixtures beside the repository (Stripe's own fixture objects). */
export const VENDOR_FIXTURES_DIR = path.resolve(repoRoot, '..', 'shared', 'vendor-fixtures');
const STRIPE_FIXTURES = path.join(VENDOR_FIXTURES_DIR, 'stripe-fixtures3.json');

export function stripeFixturesAvailable(): boolean {
  return existsSync(STRIPE_FIXTURES);
}

type StripeObject = Record<string, unknown>;

/** A fresh copy of Stripe's example object of one resource ('checkout.session', 'invoice', …). */
export function stripeFixture(resource: string): StripeObject {
  const all = JSON.parse(readFileSync(STRIPE_FIXTURES, 'utf8')) as { resources: Record<string, StripeObject> };
  const fixture = all.resources[resource];
  if (!fixture) throw new Error(`no Stripe fixture for ${resource} in ${STRIPE_FIXTURES}`);
  return structuredClone(fixture);
}

/** Stripe's form encoding (`a[b][0][c]=v`) back into the object the SDK was given. */
export function parseStripeForm(body: string): StripeObject {
  const root: StripeObject = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Record<string, unknown> = root;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) {
        node[part] = value;
        return;
      }
      node[part] ??= {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return root;
}

export interface StripeFakeRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  body: StripeObject;
}

export interface StripeFake {
  /** http://127.0.0.1:port, for STRIPE_API_BASE. */
  url: string;
  requests: StripeFakeRequest[];
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/**
 * A local HTTP stand-in for api.stripe.com serving Stripe's fixture objects, with the fields a
 * request sets echoed into them, for the endpoints Prodshot calls: Checkout Sessions, Billing
 * Portal sessions, products and subscriptions. Anything else answers Stripe's 404 error shape.
 */
export async function startStripeFake(): Promise<StripeFake> {
  const requests: StripeFakeRequest[] = [];
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}_fake${(++counter).toString().padStart(6, '0')}`;

  const respond = (method: string, url: string, body: StripeObject): { status: number; json: StripeObject } => {
    if (method === 'POST' && url === '/v1/checkout/sessions') {
      const id = nextId('cs_test');
      return {
        status: 200,
        json: {
          ...stripeFixture('checkout.session'),
          id,
          mode: body.mode,
          success_url: body.success_url,
          cancel_url: body.cancel_url,
          client_reference_id: body.client_reference_id ?? null,
          customer: body.customer ?? null,
          customer_email: body.customer_email ?? null,
          metadata: body.metadata ?? {},
          payment_status: 'unpaid',
          status: 'open',
          url: `https://checkout.stripe.com/c/pay/${id}`,
        },
      };
    }
    if (method === 'POST' && url === '/v1/billing_portal/sessions') {
      const id = nextId('bps');
      return {
        status: 200,
        json: { ...stripeFixture('billing_portal.session'), id, customer: body.customer, return_url: body.return_url ?? null, url: `https://billing.stripe.com/p/session/${id}` },
      };
    }
    if (method === 'POST' && url === '/v1/products') {
      return { status: 200, json: { ...stripeFixture('product'), id: nextId('prod'), name: body.name } };
    }
    const subscription = /^\/v1\/subscriptions\/([A-Za-z0-9_]+)$/.exec(url);
    if (subscription && (method === 'GET' || method === 'POST')) {
      const json: StripeObject = { ...stripeFixture('subscription'), id: subscription[1]!, status: 'active', cancel_at: null, cancel_at_period_end: false };
      if (body.cancel_at_period_end !== undefined) json.cancel_at_period_end = body.cancel_at_period_end === 'true';
      if (body.metadata) json.metadata = body.metadata;
      return { status: 200, json };
    }
    return { status: 404, json: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${url}).` } } };
  };

  const server: Server = createServer((request, response) => {
    void readBody(request).then((raw) => {
      const method = request.method ?? 'GET';
      const url = (request.url ?? '/').split('?')[0]!;
      const body = parseStripeForm(raw);
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      requests.push({ method, path: url, authorization: header('authorization'), idempotencyKey: header('idempotency-key'), body });
      const { status, json } = respond(method, url, body);
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${counter}` });
      response.end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
