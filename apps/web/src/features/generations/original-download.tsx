import type { ShotFiles, ShotRef } from '@prodshot/contracts';
import { downloadShot, fileLabel } from '../../lib/download.js';

/**
 * The second choice beside Download, which saves the JPEG: the original PNG as it was made, named
 * with its size ('PNG · 18 MB') so the seller knows what a phone is in for. Nothing when Download
 * saves the original already (a JPEG output, or a shot from before download copies).
 */
export function OriginalDownload({
  shot,
  files,
  baseName,
  onError,
  small = true,
}: {
  shot: ShotRef;
  files: ShotFiles | null | undefined;
  baseName: () => string;
  onError: () => void;
  small?: boolean;
}) {
  if (!files?.original) return null;
  const label = fileLabel(files.original);
  return (
    <button
      type="button"
      className={`button button-ghost${small ? ' button-small' : ''}`}
      aria-label={`Download original ${label}`}
      onClick={() => downloadShot(shot, baseName(), 'original').catch(onError)}
    >
      {label}
    </button>
  );
}
