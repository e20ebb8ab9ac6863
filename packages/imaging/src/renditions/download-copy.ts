import sharp from 'sharp';

/** What a marketplace or a phone takes without complaint: Amazon refuses images over 10 MB. */
export const DOWNLOAD_COPY_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Steps from the best JPEG down, tried in order until one fits DOWNLOAD_COPY_MAX_BYTES. The first
 * keeps full colour resolution (4:4:4), so a product's edges and printed text stay crisp; a
 * 4096 px marble shot is 1.9 MB there (19 MB as PNG), so only a grainy photo steps down (4096 px
 * of per-pixel grain, 40 MB as PNG, fits at quality 70). Past the last step a file stays as it is:
 * only noise with nothing in it outgrows quality 50 at 4096 px.
 * libjpeg-turbo rather than mozjpeg: the copy is made while the seller waits for the shot, and
 * mozjpeg took four times as long on that shot.
 */
const JPEG_STEPS = [
  { quality: 90, chromaSubsampling: '4:4:4' },
  { quality: 85, chromaSubsampling: '4:2:0' },
  { quality: 78, chromaSubsampling: '4:2:0' },
  { quality: 70, chromaSubsampling: '4:2:0' },
  { quality: 60, chromaSubsampling: '4:2:0' },
  { quality: 50, chromaSubsampling: '4:2:0' },
] as const;

/** A cutout's transparency is its point: it keeps it, in WebP, lossless alpha over near-lossless colour. */
const WEBP = { quality: 90, alphaQuality: 100, effort: 2 } as const;

export interface DownloadCopy {
  data: Buffer;
  contentType: 'image/jpeg' | 'image/webp';
}

/**
 * The file Download saves by default: the shot at its full size, as a JPEG under
 * DOWNLOAD_COPY_MAX_BYTES, or a WebP when it has transparency (a cutout). The original stays
 * the second choice.
 */
export async function makeDownloadCopy(image: Buffer): Promise<DownloadCopy> {
  const source = sharp(image);
  const { hasAlpha } = await source.metadata();
  if (hasAlpha && !(await source.stats()).isOpaque)
    return { data: await source.webp(WEBP).toBuffer(), contentType: 'image/webp' };
  // Decoded once: each step only encodes again.
  const { data, info } = await source.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  let jpeg = Buffer.alloc(0);
  for (const step of JPEG_STEPS) {
    jpeg = await sharp(data, raw).jpeg(step).toBuffer();
    if (jpeg.length <= DOWNLOAD_COPY_MAX_BYTES) break;
  }
  return { data: jpeg, contentType: 'image/jpeg' };
}
