import type { WorkerDeps } from '../deps.js';

/** Where a generation keeps the product cutout its style jobs share, so each style does not cut out again. */
export function cutoutKey(userId: string, generationId: string): string {
  return `users/${userId}/generations/${generationId}/cutout.png`;
}

export async function loadOrMakeCutout(deps: WorkerDeps, userId: string, generationId: string, sourceKey: string): Promise<Buffer> {
  const key = cutoutKey(userId, generationId);
  if (await deps.store.stat(key)) return deps.store.get(key);
  const cutout = await deps.engine.removeBackground(await deps.store.get(sourceKey));
  await deps.store.put(key, cutout, 'image/png');
  return cutout;
}
