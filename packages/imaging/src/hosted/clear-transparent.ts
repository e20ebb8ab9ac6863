import sharp from 'sharp';

/**
 * A vendor's cutout as a PNG whose fully transparent pixels are clear (RGB 0), as the engine's own
 * are: a service may leave the photo's colours under zero alpha, and the seller's room would ride
 * along, hidden, in every transparent download.
 */
export async function clearTransparent(cutout: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(cutout).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  for (let p = 0; p < data.length; p += 4) if (!data[p + 3]) data.fill(0, p, p + 3);
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .png()
    .toBuffer();
}
