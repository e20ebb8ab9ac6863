import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';
export {
  verifyWebhookSignature,
  signWebhookBody,
  WebhookGuard,
  SIGNATURE_HEADER,
  EVENT_ID_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
  type WebhookVerdict,
} from './webhook-signature.js';

export type ProdshotClient = Client<paths>;

export interface ProdshotClientOptions {
  /** Where the API is, e.g. https://prodshot.example or http://localhost:3000. */
  baseUrl: string;
  /**
   * An API key (`psk_live_…`, `psk_test_…`), or a session token for the calls a key cannot make
   * (keys, payments); without either, only the public operations (sign-in, plans, health) answer.
   */
  apiKey?: string;
}

/** A typed client for every operation of the API document (schema.d.ts), sending the key as a bearer credential. */
export function createProdshotClient({ baseUrl, apiKey }: ProdshotClientOptions): ProdshotClient {
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    ...(apiKey ? { headers: { Authorization: `Bearer ${apiKey}` } } : {}),
  });
}

/**
 * The body serializer of a multipart operation (`POST /api/images/upload`): each field a part, a
 * File keeping its name. Pass it as `bodySerializer`.
 */
export function formData(body: Record<string, string | Blob | undefined>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) if (value !== undefined) form.append(name, value);
  return form;
}
