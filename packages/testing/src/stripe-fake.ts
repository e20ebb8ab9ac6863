import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StripeObject } from './stripe-fixtures.js';
import { stripeResources } from './stripe-resources.js';
import { parseStripeForm } from './stripe-wire.js';

export { STRIPE_FIXTURES, stripeFixture } from './stripe-fixtures.js';
export { parseStripeForm } from './stripe-wire.js';

export interface StripeFakeRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  /** The form body of a POST, or the query of a GET, decoded. */
  body: StripeObject;
}

export interface StripeFake {
  /** http://127.0.0.1:port, for STRIPE_API_BASE. */
  url: string;
  requests: StripeFakeRequest[];
  /** The fake's copy of a subscription (as GET /v1/subscriptions/:id answers it), if it has one. */
  subscription(id: string): StripeObject | undefined;
  /** The active price holding this lookup_key, if one was created. */
  price(lookupKey: string): StripeObject | undefined;
  /** Records that a PaymentIntent paid an invoice, as Checkout would have: GET /v1/invoice_payments lists it, and it can be refunded. */
  payInvoice(invoiceId: string, paymentIntentId: string, amount: number): void;
  /** The refunds made of a PaymentIntent. */
  refundsOf(paymentIntentId: string): StripeObject[];
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
 * A local HTTP stand-in for api.stripe.com built from Stripe's fixture objects, for the endpoints
 * Prodshot calls: Checkout Sessions, Billing Portal sessions, products, prices (listed by
 * lookup_keys), subscriptions (retrieve, update, cancel), invoice payments and refunds. It keeps what was created, answers Stripe's
 * error shape (an unknown price, a product id or lookup_key already taken, an unknown URL), and
 * replays the first answer to a repeated Idempotency-Key. A subscription it was never told of is
 * made up on first use (an active one on a fixture price for the month from now): webhooks in
 * tests speak of subscriptions that Checkout would have created.
 */
export async function startStripeFake(): Promise<StripeFake> {
  const requests: StripeFakeRequest[] = [];
  const replays = new Map<string, { status: number; body: string }>();
  const { respond, subscription, price, payInvoice, refundsOf, idsMade } = stripeResources();

  const server: Server = createServer((request, response) => {
    void readBody(request).then((raw) => {
      const method = request.method ?? 'GET';
      const [url = '/', query = ''] = (request.url ?? '/').split('?');
      const body = parseStripeForm(method === 'GET' ? query : raw);
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      const idempotencyKey = header('idempotency-key');
      requests.push({ method, path: url, authorization: header('authorization'), idempotencyKey, body });
      // Stripe answers a repeated key with the first answer, whatever happened since.
      const replayKey = idempotencyKey && method === 'POST' ? `${url} ${idempotencyKey}` : undefined;
      let answer = replayKey ? replays.get(replayKey) : undefined;
      if (!answer) {
        const reply = respond(method, url, body);
        answer = { status: reply.status, body: JSON.stringify(reply.json) };
        if (replayKey) replays.set(replayKey, answer);
      }
      response.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': `req_${idsMade()}` });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    subscription,
    price,
    payInvoice,
    refundsOf,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
