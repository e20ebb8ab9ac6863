import type { StripeObject } from './stripe-fixtures.js';

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

export interface Reply {
  status: number;
  json: StripeObject;
}

export const ok = (json: StripeObject): Reply => ({ status: 200, json });

/** Stripe's error shape (https://docs.stripe.com/api/errors). */
export function stripeError(status: number, message: string, code?: string, param?: string): Reply {
  return {
    status,
    json: { error: { type: 'invalid_request_error', message, ...(code ? { code } : {}), ...(param ? { param } : {}) } },
  };
}

/** Form-encoded arrays arrive as objects keyed '0', '1', …. */
export function listOf(value: unknown): StripeObject[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, StripeObject>)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, item]) => item);
}

export function strings(value: unknown): string[] {
  return listOf(value).map(String);
}
