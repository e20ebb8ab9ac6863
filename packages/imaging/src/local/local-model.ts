// Over 250 lines: the local engine: one method per ImageModel call and the placement helpers the render and the
// exports share.
import sharp from 'sharp';
import { PROMPT_MAX_LENGTH, isTemplateHandle } from '@prodshot/contracts';
import { EmptyImageError, InvalidRequestError } from '../errors.js';
import { decodeRaw } from '../input/normalise-input.js';
import { makeRenditions } from '../renditions/make-renditions.js';
import type { RawImage } from '../input/normalise-input.js';
import { SHOT_SIZES } from '../types.js';
import type {
  Analysis,
  Box,
  CutoutOptions,
  ProductFinding,
  GenerateOptions,
  GenerateResult,
  ImageModel,
  KindReading,
  OutputFormat,
  Placement,
  ProductHints,
  ShotSize,
  StyleRecommendations,
} from '../types.js';
import { analyseImage, UNREAD_KIND } from './analyse.js';
import { composeShot } from './compose/compose-shot.js';
import { placeProduct, positionBox } from './compose/placement.js';
import { upsize } from './compose/upsize.js';
import type { PlacementInput } from './compose/placement.js';
import { findProduct, locateProduct, locateSubject, scaledCutout } from './cutout/cutout.js';
import type { SalientObjectModel } from './saliency/salient-model.js';
import { seededScene } from './prompt/scene-from-prompt.js';
import { floorLine } from './scenes/render-scene.js';
import { sceneImage } from './scenes/scene-image.js';
import type { SceneSpec } from './scenes/scene-spec.js';
import { enhance, recommendStylesFor } from './styles.js';

/** Scenes are composed at most at this size; ultra HD is an upscale of it (docs/decisions.md). */
const MAX_COMPOSE_SIZE = 2048;
/** Inputs are decoded no larger than this: even a 4096 shot never needs more product pixels. */
const MAX_WORK_SIDE = 4096;
/**
 * Photos are cut out at most at this size: a product fills at most the compose size of a shot,
 * and the edge refinement's cost grows with the pixels it sees; the margin above 2048 keeps
 * common 2160 px studio photos at their own resolution.
 */
const MAX_CUTOUT_SIDE = 2560;

export function validate(options: GenerateOptions): { size: ShotSize; seed: number; format: OutputFormat } {
  const size = options.size ?? 1024;
  if (!(SHOT_SIZES as readonly number[]).includes(size))
    throw new InvalidRequestError(`Shot size must be one of ${SHOT_SIZES.join(', ')} pixels.`);
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed)) throw new InvalidRequestError('The seed must be a whole number.');
  const format = options.format ?? 'png';
  if (format !== 'png' && format !== 'jpeg') throw new InvalidRequestError('The output format must be png or jpeg.');
  if (options.template !== undefined && !isTemplateHandle(options.template))
    throw new InvalidRequestError(`Unknown template '${String(options.template)}'.`);
  if (options.prompt !== undefined && options.prompt.length > PROMPT_MAX_LENGTH) {
    throw new InvalidRequestError(`The background description can be at most ${PROMPT_MAX_LENGTH} characters.`);
  }
  const input = options.image ?? options.cutout;
  if (!Buffer.isBuffer(input)) throw new InvalidRequestError('An image or a cutout is required.');
  return { size, seed, format };
}

/**
 * Encodes a composed square, enlarging it first when the shot is bigger than the compose size.
 * PNG at zlib level 3 without adaptive filtering: a 1024 px shot encodes in ~30 ms instead of
 * ~44 ms at level 4 (~70 ms with filtering), for files about 3% larger.
 */
export async function encode(
  pixels: Buffer,
  side: number,
  channels: 3 | 4,
  format: OutputFormat,
  size: number,
): Promise<Buffer> {
  let image = sharp(pixels, { raw: { width: side, height: side, channels } }).removeAlpha();
  if (size > side) image = upsize(image, size, size);
  return format === 'png'
    ? image.png({ compressionLevel: 3, adaptiveFiltering: false }).toBuffer()
    : image.jpeg({ quality: 90, mozjpeg: true }).toBuffer();
}

export interface LocalModelOptions {
  /**
   * The salient-object model that finds the product in a photo (loaded once per process and
   * shared). Without it the engine falls back to its classical cutout, which needs a plain backdrop.
   */
  salient?: SalientObjectModel;
  /**
   * Decode the product while the scene renders (default). Worth it only with a spare core per
   * render: where renders already fill the cores, the overlap just makes them fight for them.
   */
  overlapSteps?: boolean;
}

/** The built-in engine: ML cutout on the CPU, procedural scenes, compositing. No network. */
export class LocalImageModel implements ImageModel {
  readonly name = 'local';
  private readonly overlapSteps: boolean;
  private readonly salient: SalientObjectModel | undefined;

  constructor(options: LocalModelOptions = {}) {
    this.overlapSteps = options.overlapSteps ?? true;
    this.salient = options.salient;
  }

  async analyse(image: Buffer, hints?: ProductHints): Promise<Analysis> {
    return (await this.analyseWithRefusal(image, hints)).analysis;
  }

  async findProduct(image: Buffer): Promise<ProductFinding> {
    const { analysis, refusal } = await this.analyseWithRefusal(image);
    const { width, height, subject } = analysis;
    // The cutout's own refusal, so the seller (and the coach) read why: a bare surface, say.
    if (!subject) throw refusal ?? new EmptyImageError();
    return { width, height, subject };
  }

  /** The analysis, and why no subject was found when none was. */
  private async analyseWithRefusal(
    image: Buffer,
    hints?: ProductHints,
  ): Promise<{ analysis: Analysis; refusal?: EmptyImageError }> {
    // The size removeBackground decodes at: the model sees the same pixels, so a cached mask serves both.
    const raw = await decodeRaw(image, { maxSide: MAX_CUTOUT_SIDE });
    let segmentation = null,
      refusal: EmptyImageError | undefined;
    try {
      segmentation = await locateSubject(raw, this.salient);
    } catch (error) {
      // An image with no separable subject is still analysable: palette and hints still apply.
      if (!(error instanceof EmptyImageError)) throw error;
      refusal = error;
    }
    const analysis = await analyseImage(raw, segmentation, hints);
    return refusal ? { analysis, refusal } : { analysis };
  }

  readKind(): Promise<KindReading> {
    return Promise.resolve(UNREAD_KIND);
  }

  async recommendStyles(analysis: Analysis, hints?: ProductHints): Promise<StyleRecommendations> {
    return recommendStylesFor(analysis, hints);
  }

  async removeBackground(image: Buffer, options: CutoutOptions = {}): Promise<Buffer> {
    const { data, width, height } = await this.cutout(image, options);
    return sharp(data, { raw: { width, height, channels: 4 } })
      .png()
      .toBuffer();
  }

  /** The RGBA cutout of a photo, raw, at most MAX_CUTOUT_SIDE a side. */
  private async cutout(image: Buffer, { taps }: CutoutOptions): Promise<RawImage> {
    const raw = await decodeRaw(image, { maxSide: this.salient ? MAX_CUTOUT_SIDE : MAX_WORK_SIDE });
    const { cutout, width, height } = await findProduct(raw, this.salient, taps);
    return { ...raw, data: cutout, width, height, hasAlpha: true };
  }

  async generate(options: GenerateOptions): Promise<GenerateResult> {
    const { size, seed, format } = validate(options);
    const composeSize = Math.min(size, MAX_COMPOSE_SIZE);
    const { parsed, spec } = seededScene(options.template, options.prompt, seed);
    // A photo is cut out first (by the model when there is one); a cutout is used as it is.
    const input =
      options.cutout ?? (this.salient ? await this.cutout(options.image!, { taps: options.taps }) : options.image!);
    const placeProductStep = () =>
      placedProduct(input, Boolean(options.cutout) || !Buffer.isBuffer(input), spec, composeSize);
    const sceneStep = () => sceneImage(spec, composeSize, seed);
    const [product, scene] = this.overlapSteps
      ? await Promise.all([placeProductStep(), sceneStep()])
      : [await placeProductStep(), await sceneStep()];
    const { layer, bounds, placement } = product;
    const shot = await composeShot(scene, spec, { ...layer, bounds });
    const factor = size / composeSize;
    const pixels = { data: shot.data, width: composeSize, height: composeSize, channels: shot.channels, opaque: true };
    // The renditions come from the composed pixels while the shot encodes: no decode of the file, and a spare core's time.
    const [image, renditions] = await Promise.all([
      encode(shot.data, composeSize, shot.channels, format, size),
      options.renditions ? makeRenditions(pixels, options.renditions) : undefined,
    ]);
    return {
      ...(renditions ? { renditions } : {}),
      image,
      width: size,
      height: size,
      format,
      mimeType: format === 'png' ? 'image/png' : 'image/jpeg',
      seed,
      placement: scalePlacement(placement, factor),
      background: {
        source: parsed ? 'prompt' : 'template',
        template: options.template ?? (parsed ? null : 'studio'),
        scene: spec.id,
        description: spec.description,
      },
    };
  }

  async enhancePrompt(prompt: string, analysis?: Analysis): Promise<string> {
    if (!prompt.trim()) throw new InvalidRequestError('Please describe a background to enhance.');
    return enhance(prompt, analysis);
  }

  async upscale(image: Buffer, factor: number): Promise<Buffer> {
    if (!(factor > 1 && factor <= 4))
      throw new InvalidRequestError('The upscale factor must be above 1 and at most 4.');
    const raw = await decodeRaw(image, { maxSide: MAX_WORK_SIDE });
    const width = Math.round(raw.width * factor),
      height = Math.round(raw.height * factor);
    const enlarged = upsize(
      sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 4 } }),
      width,
      height,
    );
    return raw.hasAlpha
      ? enlarged.png().toBuffer()
      : enlarged.removeAlpha().jpeg({ quality: 92, mozjpeg: true }).toBuffer();
  }
}

export interface PlacedProduct {
  /** The cutout layer, clipped to the frame. */
  layer: { rgba: Buffer; box: Box };
  /** Opaque product bounds in the shot. */
  bounds: Box;
  placement: Placement;
}

/**
 * Decodes the input, finds the product, scales it for the scene's placement rule and cuts it
 * out at that size. Shared with the hosted adapters, which paste the untouched product back
 * over what the remote model painted.
 */
export async function placedProduct(
  input: Buffer | RawImage,
  isCutout: boolean,
  spec: SceneSpec,
  size: number,
): Promise<PlacedProduct> {
  const raw = Buffer.isBuffer(input) ? await decodeRaw(input, { maxSide: MAX_WORK_SIDE }) : input;
  // A supplied cutout is trusted as-is, even where it happens to be fully opaque.
  const source: RawImage = isCutout ? { ...raw, hasAlpha: true } : raw;
  const located = await locateProduct(source);
  const layout = layoutInput(spec, size);
  const { scale } = placeProduct({ ...layout, productWidth: located.width, productHeight: located.height });
  const cut = await scaledCutout(source, located, scale);
  const bounds = positionBox(cut.bounds.width, cut.bounds.height, {
    ...layout,
    productWidth: cut.bounds.width,
    productHeight: cut.bounds.height,
  });
  const box = { x: bounds.x - cut.bounds.x, y: bounds.y - cut.bounds.y, width: cut.width, height: cut.height };
  return { layer: clipToFrame(cut.rgba, box, size), bounds, placement: { sourceBox: cut.sourceBox, box, scale } };
}

export function scalePlacement(placement: Placement, factor: number): Placement {
  const { box } = placement;
  return {
    ...placement,
    box: { x: box.x * factor, y: box.y * factor, width: box.width * factor, height: box.height * factor },
    scale: placement.scale * factor,
  };
}

function layoutInput(spec: SceneSpec, size: number): Omit<PlacementInput, 'productWidth' | 'productHeight'> {
  return { size, style: spec.placement, floor: floorLine(spec), lightAzimuth: spec.light.azimuth, view: spec.view };
}

/** Drops the transparent margin of a layer that would stick out of the frame (sharp refuses those). */
export function clipToFrame(rgba: Buffer, box: { x: number; y: number; width: number; height: number }, size: number) {
  const left = Math.max(0, -box.x),
    top = Math.max(0, -box.y);
  const right = Math.min(box.width, size - box.x),
    bottom = Math.min(box.height, size - box.y);
  if (left === 0 && top === 0 && right === box.width && bottom === box.height) return { rgba, box };
  const width = right - left,
    height = bottom - top;
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    rgba.copy(out, y * width * 4, ((top + y) * box.width + left) * 4, ((top + y) * box.width + right) * 4);
  return { rgba: out, box: { x: box.x + left, y: box.y + top, width, height } };
}
