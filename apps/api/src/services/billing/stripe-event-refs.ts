import { isUuid, type Repositories } from '@prodshot/db';

/** An event that cannot apply yet: answered with an error so that Stripe delivers it again later. */
export class EventTooEarlyError extends Error {
  override readonly name = 'EventTooEarlyError';
}

/** Stripe names a related object by its id or, when expanded, by the object itself. */
export function idOf(value: string | { id: string }): string;
export function idOf(value: string | { id: string } | null | undefined): string | null;
export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

export function presentIds(...values: Array<string | { id: string } | null | undefined>): string[] {
  return values.map(idOf).filter((id): id is string => id !== null);
}

/** Stripe's status for a subscription whose first payment has not arrived: ours while a delayed payment is on its way. */
export const PENDING = 'incomplete';

/** Every grant for a subscription's invoice uses this key, whichever event brings it first. */
export function invoiceGrantKey(invoiceId: string): string {
  return `stripe:invoice:${invoiceId}`;
}

export async function knownUser(repos: Repositories, userId: string | undefined): Promise<string | null> {
  if (!userId || !isUuid(userId)) return null;
  return (await repos.users.findById(userId)) ? userId : null;
}
