import type { JobPayloads } from '@prodshot/contracts';

type Payload = JobPayloads['style-recommendation'];

/** The payload before it named its mode: a flag, and a style count of 0 in the client flow. */
export type FlaggedPayload = Omit<Payload, 'mode'> & { mode?: undefined; fanOut: boolean; styleCount: number };

/**
 * A style-recommendation job's payload with its mode. Jobs queued before the payload named it say
 * `fanOut` instead (a rolling deploy finds them in Redis): they are read as the mode they meant.
 */
export function recommendationMode(payload: Payload | FlaggedPayload): Payload {
  if (payload.mode !== undefined) return payload;
  const { fanOut, styleCount, ...common } = payload;
  return fanOut ? { ...common, mode: 'fan-out', styleCount } : { ...common, mode: 'client' };
}
