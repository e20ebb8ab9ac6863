import sharp, { type Sharp } from 'sharp';
import { EXPORT_MIME_TYPES, type ExportFormat, type ExportPreset } from '@prodshot/contracts';
import { InvalidRequestError, unusableFileError } from '../errors.js';
import { decodeRaw, type RawImage } from '../input/normalise-input.js';
import { composeShot } from '../local/compose/compose-shot.js';
import { locateProduct, scaledCutout } from '../local/cutout/cutout.js';
import { boundingBox } from '../local/cutout/mask-ops.js';
import { clipToFrame } from '../local/local-model.js';
import { fillFrame, frameScale, framePosition } from './frame.js';
import { enlarge, region, sceneFrame, type ExportScene } from './scene-plate.js';

/** The upload's cutout is decoded no larger than this: a 2000 px Amazon frame never needs more. */
const MAX_CUTOUT_SIDE = 4096;
/** Amazon asks ≥ 85%: 90% leaves a 5% margin on the longer side, so the product never touches an edge. */
const WHITE_FILL = 0.9;
/** Transparent margin kept around a cutout, as a share of its longer side. */
const CUTOUT_MARGIN = 0.02;

export interface ExportInput {
  preset: ExportPreset;
  format: ExportFormat;
  /** The upload's cutout (RGBA PNG), which every shot of it was composed from. */
  cutout: Buffer;
  /** The local engine's scene of the output; null when a hosted model painted it. */
  scene: ExportScene | null;
  /** The finished output, extended (never cropped) when its scene cannot be rendered again. */
  shot: Buffer;
}

export interface ExportOutput {
  image: Buffer;
  width: number;
  height: number;
  mimeType: 'image/png' | 'image/jpeg' | 'image/webp';
}

/**
 * Renders a marketplace export. Every preset starts from the product's cutout, so the frame is
 * built around the whole product rather than cut from the finished square: white and transparent
 * frames place the cutout alone; scene frames compose it again in the output's own scene, cut
 * to the frame's aspect. A hosted model's scene cannot be rendered again: its square is fitted
 * whole into the frame and the rest filled with a blurred extension of its own edges.
 */
export async function renderExport(input: ExportInput): Promise<ExportOutput> {
  const { preset, format } = input;
  if (!preset.formats.includes(format))
    throw new InvalidRequestError(`${preset.label} exports as ${preset.formats.join(' or ')}.`);
  if (preset.background === 'transparent') return encoded(await transparentCutout(input.cutout), format);
  const width = preset.width!,
    height = preset.height!;
  if (preset.background === 'white') return encoded(await onWhite(input.cutout, width, height), format);
  if (input.scene) return encoded(await inScene(input.cutout, input.scene, width, height), format);
  return encoded(await extended(input.shot, width, height), format);
}

async function productSource(
  cutout: Buffer,
): Promise<{ source: RawImage; located: { x: number; y: number; width: number; height: number } }> {
  const raw = await decodeRaw(cutout, { maxSide: MAX_CUTOUT_SIDE });
  const source = { ...raw, hasAlpha: true };
  return { source, located: await locateProduct(source) };
}

async function transparentCutout(cutout: Buffer): Promise<Sharp> {
  const raw = await decodeRaw(cutout, { maxSide: MAX_CUTOUT_SIDE });
  const box = boundingBox(raw.data, raw.width, raw.height, 1, 4, 3);
  if (!box) throw unusableFileError('it is fully transparent');
  const pad = Math.max(1, Math.round(Math.max(box.width, box.height) * CUTOUT_MARGIN));
  const { data } = await sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 4 } })
    .extract({ left: box.x, top: box.y, width: box.width, height: box.height })
    .extend({ top: pad, bottom: pad, left: pad, right: pad, background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: box.width + 2 * pad, height: box.height + 2 * pad, channels: 4 } });
}

async function onWhite(cutout: Buffer, width: number, height: number): Promise<Sharp> {
  const { source, located } = await productSource(cutout);
  const target = fillFrame(located.width, located.height, width, height, WHITE_FILL);
  const cut = await scaledCutout(source, located, target.width / located.width);
  const layer = clipToFrame(
    cut.rgba,
    { x: target.x - cut.bounds.x, y: target.y - cut.bounds.y, width: cut.width, height: cut.height },
    Math.max(width, height),
  );
  const white = sharp({ create: { width, height, channels: 3, background: { r: 255, g: 255, b: 255 } } });
  const { data } = await white
    .composite([
      {
        input: layer.rgba,
        raw: { width: layer.box.width, height: layer.box.height, channels: 4 },
        left: layer.box.x,
        top: layer.box.y,
      },
    ])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width, height, channels: 3 } });
}

async function inScene(cutout: Buffer, sceneSource: ExportScene, width: number, height: number): Promise<Sharp> {
  const [{ source, located }, frame] = await Promise.all([
    productSource(cutout),
    sceneFrame(sceneSource, width, height),
  ]);
  const cut = await scaledCutout(source, located, frameScale(located.width, located.height, frame.layout));
  const bounds = framePosition(cut.bounds.width, cut.bounds.height, frame.layout);
  const layer = clipToFrame(
    cut.rgba,
    { x: bounds.x - cut.bounds.x, y: bounds.y - cut.bounds.y, width: cut.width, height: cut.height },
    frame.size,
  );
  const shot = await composeShot(frame.scene, frame.spec, { ...layer, bounds });
  const composed = sharp(shot.data, { raw: { width: frame.size, height: frame.size, channels: shot.channels } })
    .removeAlpha()
    .extract(region(frame.layout));
  const { data } = await enlarge(composed, frame.layout, width, height).raw().toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width, height, channels: 3 } });
}

async function extended(shot: Buffer, width: number, height: number): Promise<Sharp> {
  // A transparent output (background removal) is extended on white, not on its hidden colours.
  const image = sharp(shot).flatten({ background: '#ffffff' });
  const [backdrop, whole] = await Promise.all([
    image
      .clone()
      .resize(width, height, { fit: 'cover' })
      .blur(Math.max(width, height) / 40)
      .raw()
      .toBuffer(),
    image
      .clone()
      .resize(width, height, { fit: 'inside', kernel: 'lanczos3' })
      .raw()
      .toBuffer({ resolveWithObject: true }),
  ]);
  const { data } = await sharp(backdrop, { raw: { width, height, channels: 3 } })
    .composite([
      {
        input: whole.data,
        raw: { width: whole.info.width, height: whole.info.height, channels: 3 },
        gravity: 'centre',
      },
    ])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width, height, channels: 3 } });
}

/** JPEG gets 4:4:4 chroma, so pure white stays RGB 255 right up to the product's edge. */
async function encoded(image: Sharp, format: ExportFormat): Promise<ExportOutput> {
  const pipeline =
    format === 'png'
      ? image.png({ compressionLevel: 6 })
      : format === 'jpeg'
        ? image.flatten({ background: '#ffffff' }).jpeg({ quality: 92, mozjpeg: true, chromaSubsampling: '4:4:4' })
        : image.webp({ quality: 90, alphaQuality: 100 });
  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
  return { image: data, width: info.width, height: info.height, mimeType: EXPORT_MIME_TYPES[format] };
}
