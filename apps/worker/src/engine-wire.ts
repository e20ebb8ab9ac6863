import type { ImageModel, ImagingErrorData } from '@prodshot/imaging';

export type EngineMethod = Exclude<keyof ImageModel, 'name'>;

export interface EngineCall {
  method: EngineMethod;
  args: unknown[];
}

export type EngineReply =
  { ok: true; value: unknown } | { ok: false; imaging: ImagingErrorData } | { ok: false; message: string };

/**
 * Structured cloning turns Buffers into plain Uint8Arrays; sharp and our engine want Buffers
 * back, so every Uint8Array inside a message becomes a Buffer view again (no copy).
 */
export function revive(value: unknown): unknown {
  if (value instanceof Uint8Array)
    return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (Array.isArray(value)) return value.map(revive);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, revive(inner)]));
  }
  return value;
}
