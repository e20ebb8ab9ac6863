import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { removeBackground, type Config } from '@imgly/background-removal-node';
import { defaultWeightsFolder } from '../local/saliency/default-weights.js';

/**
 * The anchor column: IMG.LY's own pipeline (`@imgly/background-removal-node`, AGPL like us) around
 * the same ISNet weights, so each category shows what the reference implementation makes of the
 * same photos. The weights come from the installed `@imgly/background-removal-data`, read from
 * disk through a file:// public path: the anchor never reaches a CDN.
 */

export const ANCHOR_LABEL = '@imgly/background-removal-node 1.4.5, ISNet "medium" (float16), weights from @imgly/background-removal-data';

function anchorConfig(): Config {
  const folder = defaultWeightsFolder();
  if (!folder) throw new Error('@imgly/background-removal-data is not installed: the anchor has no weights to read');
  return { publicPath: `${pathToFileURL(path.join(folder, 'dist')).href}/`, model: 'medium', output: { format: 'image/png' } };
}

/** The anchor's cutout of a JPEG or PNG photo, as an RGBA PNG at the photo's size. */
export async function anchorCutout(photo: Buffer, mime: 'image/jpeg' | 'image/png' = 'image/jpeg'): Promise<Buffer> {
  const blob = await removeBackground(new Blob([new Uint8Array(photo)], { type: mime }), anchorConfig());
  return Buffer.from(await blob.arrayBuffer());
}
