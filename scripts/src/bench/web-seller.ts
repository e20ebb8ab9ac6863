import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { IDEMPOTENCY_KEY_HEADER, OUTPUTS_PER_REQUEST_MAX, type AcceptedResponse, type GenerationDto, type PaidPlanId } from '@prodshot/contracts';

/** A seller as the web app knows one: the embedded sign-in's token, under the web app's storage key. */
export interface WebSeller {
  email: string;
  token: string;
}

/** One call of the API as the web app makes it; a non-2xx answer throws with its status and body. */
export async function call<T>(baseUrl: string, token: string | null, method: string, route: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const isForm = body instanceof FormData;
  const response = await fetch(`${baseUrl}/api${route}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Signs a new seller up through the embedded sign-in and buys a plan (by default Growth: ultra HD shots) from the local payments provider. */
export async function paidSeller(baseUrl: string, name: string, plan: PaidPlanId = 'growth'): Promise<WebSeller> {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@bench.example`;
  const { token } = await call<{ token: string }>(baseUrl, null, 'POST', '/dev/sign-in', { email, name });
  await call(baseUrl, token, 'POST', '/payments/subscription', { planKey: plan, customerData: { name, email }, return_url: `${baseUrl}/dashboard` }, { [IDEMPOTENCY_KEY_HEADER]: randomUUID() });
  return { email, token };
}

/** Uploads `count` copies of a photo, as the web app's upload does; answers the image ids. */
export async function uploadPhotos(baseUrl: string, seller: WebSeller, photo: string, count: number): Promise<string[]> {
  const bytes = await readFile(photo);
  const ids: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const form = new FormData();
    const name = `${path.basename(photo, path.extname(photo))}-${n + 1}${path.extname(photo)}`;
    form.append('name', name);
    form.append('image', new Blob([bytes]), name);
    ids.push((await call<{ _id: string }>(baseUrl, seller.token, 'POST', '/images/upload', form, { [IDEMPOTENCY_KEY_HEADER]: randomUUID() }))._id);
  }
  return ids;
}

async function settled(baseUrl: string, seller: WebSeller, generationId: string, timeoutMs: number): Promise<GenerationDto> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data } = await call<{ data: GenerationDto }>(baseUrl, seller.token, 'GET', `/generations/${generationId}`);
    if (data.status === 'complete' || data.status === 'failed') return data;
    if (Date.now() > deadline) throw new Error(`generation ${generationId} still ${data.status} after ${timeoutMs} ms`);
    await sleep(500);
  }
}

/** Makes `count` template shots of an upload, up to four a request, each request waited for; answers how many completed. */
export async function generateShots(baseUrl: string, seller: WebSeller, imageId: string, count: number, timeoutMs = 600_000): Promise<number> {
  let made = 0;
  while (made < count) {
    const batch = Math.min(OUTPUTS_PER_REQUEST_MAX, count - made);
    const { data } = await call<AcceptedResponse>(
      baseUrl,
      seller.token,
      'POST',
      '/images/generate-product-shots',
      { imageId, backgroundType: 'marble', count: batch },
      { [IDEMPOTENCY_KEY_HEADER]: randomUUID(), prefer: 'respond-async' },
    );
    const run = await settled(baseUrl, seller, data.generationId, timeoutMs);
    const complete = run.styles.filter((style) => style.status === 'complete').length;
    if (complete === 0) throw new Error(`generation ${run.id} made nothing: ${run.error ?? 'no reason given'}`);
    made += complete;
  }
  return made;
}
