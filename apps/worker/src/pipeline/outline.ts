import { storedTaps, type JobFocus, type UploadOutline } from '@prodshot/contracts';
import { outlineDoubts, outlineOf } from '@prodshot/imaging';
import { uploadOutlineKey } from '@prodshot/storage';
import type { WorkerDeps } from '../deps.js';
import { loadOrMakeCutout } from './cutout.js';

/** What the engine said of the product it picked; a seller's tap is their own pick, so it doubts only the mask. */
export interface OutlineFinding {
  confidence: number;
  severalObjects: boolean;
}

const TAPPED: OutlineFinding = { confidence: 1, severalObjects: false };

/**
 * The outline the seller checks before paying, made from the very cutout the generations will use
 * (the engine's pick, or the one for their taps; `cutout` when the caller has just stored it): its
 * preview is stored beside the upload and the outline, unconfirmed, recorded on the upload's row
 * with the taps it was made for.
 */
export async function makeOutline(
  deps: WorkerDeps,
  upload: { imageId: string; sourceKey: string; focus?: JobFocus | undefined },
  found: OutlineFinding = TAPPED,
  cutout?: Buffer,
): Promise<UploadOutline> {
  const { imageId, sourceKey } = upload;
  const taps = storedTaps(upload.focus);
  const { preview, mask } = await outlineOf(cutout ?? (await loadOrMakeCutout(deps, sourceKey, taps)));
  const key = uploadOutlineKey(sourceKey, taps);
  await deps.store.put(key, preview, 'image/webp');
  const reasons = outlineDoubts(mask, found);
  const outline: UploadOutline = { key, unsure: reasons.length > 0, reasons, confirmed: false, focus: taps ?? null };
  await deps.repos.images.setOutline(imageId, outline);
  return outline;
}
