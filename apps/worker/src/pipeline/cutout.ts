import { storedTaps, type JobFocus } from '@prodshot/contracts';
import { uploadCutoutKey } from '@prodshot/storage';
import type { WorkerDeps } from '../deps.js';

/**
 * The upload's cutout, made once and reused by every generation from it (and by the analysis
 * after upload, which makes the untapped one). Other taps keep another product, so each list of
 * taps gets its own; a job's lone point (queued before taps) is one keep tap.
 */
export async function loadOrMakeCutout(deps: WorkerDeps, sourceKey: string, focus?: JobFocus | null): Promise<Buffer> {
  const taps = storedTaps(focus);
  const key = uploadCutoutKey(sourceKey, taps);
  if (await deps.store.stat(key)) return deps.store.get(key);
  const cutout = await deps.engine.removeBackground(await deps.store.get(sourceKey), { taps });
  return storeCutout(deps, sourceKey, cutout, taps);
}

/** Keeps a cutout made for these taps (none: the engine's own pick) where every later generation from the upload finds it. */
export async function storeCutout(
  deps: WorkerDeps,
  sourceKey: string,
  cutout: Buffer,
  focus?: JobFocus | null,
): Promise<Buffer> {
  await deps.store.put(uploadCutoutKey(sourceKey, storedTaps(focus)), cutout, 'image/png');
  return cutout;
}
