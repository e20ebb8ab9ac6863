import sharp from 'sharp';

/** The edit endpoint's square size; the shot is resized from it to the plan's size. */
export const EDIT_SIZE = 1024;
/** The product's edge pixels at least this opaque are kept; fainter ones are the model's to paint. */
const KEEP_ALPHA = 128;
/** Behind the product in the image sent: the mask, not this colour, says where to paint. */
const BACKDROP = { r: 128, g: 128, b: 128 };

type Layer = { input: Buffer; raw: { width: number; height: number; channels: 4 }; left: number; top: number };

/**
 * What /images/edits defines: an opaque image, and a mask of the same size whose fully transparent
 * pixels mean "edit here". The product's solid pixels are opaque in the mask, so they are kept.
 */
export async function editInputs(layer: Layer): Promise<{ image: Buffer; mask: Buffer }> {
  const { width, height } = layer.raw;
  const image = sharp({ create: { width: EDIT_SIZE, height: EDIT_SIZE, channels: 3, background: BACKDROP } })
    .composite([layer])
    .removeAlpha()
    .png()
    .toBuffer();
  const keep = await sharp(layer.input, { raw: layer.raw }).extractChannel(3).threshold(KEEP_ALPHA).raw().toBuffer();
  const kept = await sharp({ create: { width, height, channels: 3, background: { r: 255, g: 255, b: 255 } } })
    .joinChannel(keep, { raw: { width, height, channels: 1 } })
    .raw()
    .toBuffer();
  const mask = sharp({
    create: { width: EDIT_SIZE, height: EDIT_SIZE, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([{ ...layer, input: kept }])
    .png()
    .toBuffer();
  return { image: await image, mask: await mask };
}
