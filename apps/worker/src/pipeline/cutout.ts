import { tapsOf, type Focus } from '@prodshot/contracts';
import { uploadCutoutKey } from '@prodshot/storage';
import type { WorkerDeps } from '../deps.js';

/**
 * The upload's cutout, made once and reused by every generation from it (and by the analysis
 * after upload, which makes the untapped one). A tap picks another object, so it gets its own.
 */
export async function loadOrMakeCutout(deps: WorkerDeps, sourceKey: string, focus?: Focus): Promise<Buffer> {
  const key = uploadCutoutKey(sourceKey, focus);
  if (await deps.store.stat(key)) return deps.store.get(key);
  const cutout = await deps.engine.removeBackground(await deps.store.get(sourceKey), { taps: tapsOf(focus) });
  await deps.store.put(key, cutout, 'image/png');
  return cutout;
}
