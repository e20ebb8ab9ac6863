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
  await deps.store.put(key, cutout, 'image/png');
  return cutout;
}
