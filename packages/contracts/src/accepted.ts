import { Type, type Static, type TLiteral, type TProperties } from 'typebox';

/** The status of work just queued. */
export const Queued = Type.Literal('queued');

/**
 * The 202 envelope of every call that queues work and answers at once: `data` names what was
 * queued and carries `status: 'queued'`; the work arrives over the socket and at its GET.
 */
export function Accepted<T extends TProperties & { status: TLiteral<'queued'> }>(fields: T) {
  return Type.Object({ data: Type.Object(fields) });
}

/** 202 answer of any generation call made with `Prefer: respond-async`, and of smart generation. */
export const AcceptedResponse = Accepted({ generationId: Type.String(), status: Queued });
export type AcceptedResponse = Static<typeof AcceptedResponse>;

/** The body of a 202: `data` with `status: 'queued'`. */
export function accepted<T extends object>(data: T): { data: T & { status: 'queued' } } {
  return { data: { ...data, status: 'queued' } };
}
