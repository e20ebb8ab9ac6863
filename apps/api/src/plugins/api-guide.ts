import { API_KEY_PREFIXES, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_WINDOW_HOURS } from '@prodshot/contracts';

/** How far from the receiver's clock the guide's receivers let a delivery's t be (five minutes, as @prodshot/client's WebhookGuard). */
const WEBHOOK_TOLERANCE_SECONDS = 300;

export const TYPESCRIPT_RECEIVER = `import { createHmac, timingSafeEqual } from 'node:crypto';

const seen = new Set<string>(); // keep event ids in your database in production

/** true for a delivery signed with the endpoint's secret, recent, and not seen before. */
export function acceptWebhook(rawBody: string, signatureHeader: string, eventId: string, secret: string): boolean {
  const fields = new Map(signatureHeader.split(',').map((part) => part.trim().split('=', 2) as [string, string]));
  const t = Number(fields.get('t'));
  const v1 = fields.get('v1') ?? '';
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > ${WEBHOOK_TOLERANCE_SECONDS}) return false;
  const expected = createHmac('sha256', secret).update(t + '.' + rawBody).digest();
  const given = Buffer.from(v1, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  if (seen.has(eventId)) return false; // a repeat: answer 200 and do nothing
  seen.add(eventId);
  return true;
}`;

export const PYTHON_RECEIVER = `import hashlib, hmac, time

seen = set()  # keep event ids in your database in production

def accept_webhook(raw_body: bytes, signature_header: str, event_id: str, secret: str) -> bool:
    fields = dict(part.strip().split("=", 1) for part in signature_header.split(",") if "=" in part)
    try:
        t = int(fields.get("t", ""))
    except ValueError:
        return False
    if abs(time.time() - t) > ${WEBHOOK_TOLERANCE_SECONDS}:
        return False
    expected = hmac.new(secret.encode(), f"{t}.".encode() + raw_body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, fields.get("v1", "")):
        return False
    if event_id in seen:
        return False  # a repeat: answer 200 and do nothing
    seen.add(event_id)
    return True`;

const fence = (language: string, code: string) => ['```' + language, code, '```'].join('\n');

/**
 * The integrator's guide, in Markdown: the OpenAPI document's `info.description` (swagger-ui
 * renders it above the operations) and `GET /api/docs/guide`. Every route and field it names is
 * one the document lists below it.
 */
export const API_GUIDE = [
  'Product photos in, studio-quality marketing shots out. This guide takes one photo from upload to downloaded shots with an API key; every operation is listed below it, and "Authorize" takes a key to try them here.',
  '## 1. Create an API key',
  `Sign in to Prodshot, open **Profile → API keys**, choose a name and the scopes (\`read\` for GET calls, \`generate\` for everything else), and copy the key: it is shown once. Keys start with \`${API_KEY_PREFIXES[0]}\` (\`${API_KEY_PREFIXES[1]}\` on a deployment without Clerk). Send it on every call:`,
  fence('', 'Authorization: Bearer psk_live_…'),
  'A key acts as you: your credits, plan and limits, and only your photos and generations. Keys and payments are managed with a browser session only. Each key has its own rate limit; every limited answer carries `RateLimit-Policy` and `RateLimit` (IETF draft form, e.g. `"generation";q=10;w=60` and `"generation";r=9;t=42`), and a 429 adds `Retry-After` in seconds.',
  '## 2. Upload a photo',
  fence(
    'sh',
    'curl -H "Authorization: Bearer $PRODSHOT_KEY" -F image=@shoe.jpg https://prodshot.example/api/images/upload',
  ),
  '`POST /api/images/upload` takes the photo as multipart/form-data in the field `image` (and an optional `name`), and answers 201 with the image: keep its `_id`.',
  '## 3. Start a smart generation',
  `\`POST /api/images/smart-generate-product-shots\` with \`{ "imageId": "<_id>", "styleCount": 4 }\` answers 202 with \`data.generationId\`. Send an \`${IDEMPOTENCY_KEY_HEADER}\` header (any unique string up to 200 characters, e.g. a UUID) so that a retry after a lost answer starts nothing new and charges nothing more: the same key within ${IDEMPOTENCY_WINDOW_HOURS} hours answers with the first call's generation. Each style costs one credit; a shot that fails is never charged.`,
  fence(
    'sh',
    [
      'curl -H "Authorization: Bearer $PRODSHOT_KEY" -H "Idempotency-Key: $(uuidgen)" \\',
      '  -H "Content-Type: application/json" -d \'{"imageId":"<_id>","styleCount":4}\' \\',
      '  https://prodshot.example/api/images/smart-generate-product-shots',
    ].join('\n'),
  ),
  '## 4. Know when it is done',
  '`GET /api/generations/{id}` tells where it stands: `status` is `complete` or `failed` once it has finished, and each of `styles[]` has its own `status`. Poll it every few seconds, or register a webhook endpoint and be told.',
  'Each webhook delivery is a `POST` of JSON with two headers: `Prodshot-Event-Id` (the same on every retry of one event: drop the ones you have seen) and `Prodshot-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, signed with the endpoint\'s secret over the raw body exactly as received. Check the signature in constant time and refuse a `t` more than five minutes from your clock, so that a captured delivery cannot be replayed. Answer 2xx quickly; anything else is retried.',
  'TypeScript (Node):',
  fence('ts', TYPESCRIPT_RECEIVER),
  'Python:',
  fence('python', PYTHON_RECEIVER),
  '## 5. Download the shots',
  '`GET /api/generations/{id}/styles/{index}/download` answers the finished shot of style `index` as a JPEG attachment, or the PNG as it was made with `?file=original`.',
  fence(
    'sh',
    'curl -H "Authorization: Bearer $PRODSHOT_KEY" -o shot-0.jpg https://prodshot.example/api/generations/<id>/styles/0/download',
  ),
  '## A typed client',
  'In TypeScript, `@prodshot/client` (in the Prodshot repository) is generated from this document: `createProdshotClient({ baseUrl, apiKey })` gives typed calls for every operation below, and `verifyWebhookSignature` checks a delivery as above. `npm run example:api` runs these steps end to end.',
].join('\n\n');
