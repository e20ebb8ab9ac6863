// Over 250 lines: each ImageModel call as fal's request and answer, with the checks of what comes back.
import sharp from 'sharp';
import {
  InvalidRequestError,
  ModelBadResponseError,
  ModelMisconfiguredError,
  ModelRejectedError,
  ModelTimeoutError,
} from '../errors.js';
import type { ImagingError } from '../errors.js';
import { normaliseInput } from '../input/normalise-input.js';
import { LocalImageModel, encode, validate } from '../local/local-model.js';
import { TEMPLATE_SCENES } from '../local/scenes/presets.js';
import type {
  Analysis,
  CutoutOptions,
  ProductFinding,
  GenerateOptions,
  GenerateResult,
  ImageModel,
  KindReading,
  Point,
  ProductHints,
  StyleRecommendations,
} from '../types.js';
import type { SalientObjectModel } from '../local/saliency/salient-model.js';
import { alertOperator, type OperatorAlert } from './alert-operator.js';
import { dataUrl, decodeResult, download, isAllowed, pickString, requestJson, statusError } from './http.js';
import { clearTransparent } from './clear-transparent.js';
import type { FetchLike, HostAllowlist, HttpFailure, HttpOptions } from './http.js';

export interface FalOptions {
  apiKey: string;
  /** Queue base URL; default https://queue.fal.run. */
  baseUrl?: string;
  /** Product-shot model; default 'fal-ai/bria/product-shot'. */
  productShotModel?: string;
  /** Background-removal model; default 'fal-ai/birefnet'. */
  backgroundRemovalModel?: string;
  fetch?: FetchLike;
  timeoutMs?: number;
  /** The on-device cutout model, for finding the product where this service does not. */
  salient?: SalientObjectModel;
  /** Delay between status polls. */
  pollIntervalMs?: number;
  /** Where errors the operator must fix (unknown model, our own bad request) are reported; default stderr. */
  alert?: OperatorAlert;
}

/** fal's API hosts: the only ones our key is sent to, besides the configured queue's own origin. */
const FAL_API_HOSTS = ['fal.run', '*.fal.run', 'fal.ai', '*.fal.ai'];
/** fal's file CDN, where results are stored. */
const FAL_RESULT_HOSTS = ['fal.media', '*.fal.media'];

/**
 * fal adapter: a product-shot model paints the scene and a background-removal model cuts out,
 * both through fal's queue (submit, poll status, fetch result). Analysis, styles, prompt
 * enhancement and upscaling stay local.
 */
export class FalImageModel implements ImageModel {
  readonly name = 'fal';
  private readonly http: HttpOptions;
  private readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly productShotModel: string;
  private readonly backgroundRemovalModel: string;
  private readonly pollIntervalMs: number;
  private readonly local: LocalImageModel;
  private readonly keyHosts: HostAllowlist;
  private readonly resultHosts: HostAllowlist;
  private readonly alert: OperatorAlert;

  constructor(options: FalOptions) {
    if (!options.apiKey) throw new InvalidRequestError('The fal adapter needs an API key.');
    this.local = new LocalImageModel(options.salient ? { salient: options.salient } : {});
    this.apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl ?? 'https://queue.fal.run').replace(/\/+$/, '');
    this.productShotModel = options.productShotModel ?? 'fal-ai/bria/product-shot';
    this.backgroundRemovalModel = options.backgroundRemovalModel ?? 'fal-ai/birefnet';
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.alert = options.alert ?? alertOperator;
    const origins = [new URL(this.baseUrl).origin];
    this.keyHosts = { origins, hosts: FAL_API_HOSTS };
    this.resultHosts = { origins, hosts: FAL_RESULT_HOSTS };
    this.http = {
      model: this.name,
      fetch: options.fetch ?? fetch,
      timeoutMs: options.timeoutMs ?? 180_000,
      classify: (failure) => this.classify(failure),
    };
  }

  /**
   * fal answers validation failures as 422 with a `detail` list; a content-policy entry there is
   * the seller's to act on, anything else (or an unknown model, 404) is the operator's.
   */
  private classify(failure: HttpFailure): ImagingError {
    const common = statusError(this.name, failure);
    if (common) return common;
    const details = falDetails(failure.body);
    const providerMessage = details.map((d) => d.msg).join('; ') || undefined;
    if (details.some((d) => d.type === 'content_policy_violation'))
      return new ModelRejectedError(this.name, 'content_policy', providerMessage ? { providerMessage } : {});
    const error = new ModelMisconfiguredError(
      this.name,
      failure.status === 404 ? 'model' : 'request',
      providerMessage ? { providerMessage } : {},
    );
    this.alert(error, { status: failure.status, body: failure.body });
    return error;
  }

  /** A request that carries our key: refused before sending unless it goes to fal. */
  private keyed(url: string, init: RequestInit = {}): Promise<unknown> {
    if (!isAllowed(url, this.keyHosts))
      return Promise.reject(new ModelBadResponseError(this.name, 'the queue named a host outside fal'));
    return requestJson(this.http, url, {
      ...init,
      headers: { authorization: `Key ${this.apiKey}`, 'content-type': 'application/json' },
    });
  }

  /** Submits to the queue, polls until COMPLETED within the timeout, and returns the result JSON. */
  private async run(modelId: string, input: Record<string, unknown>): Promise<unknown> {
    const deadline = Date.now() + this.http.timeoutMs;
    const submitted = await this.keyed(`${this.baseUrl}/${modelId}`, { method: 'POST', body: JSON.stringify(input) });
    const statusUrl = pickString(this.name, submitted, ['status_url']);
    const responseUrl = pickString(this.name, submitted, ['response_url']);
    for (;;) {
      const status = await this.keyed(statusUrl);
      const state = pickString(this.name, status, ['status']);
      if (state === 'COMPLETED') break;
      if (state !== 'IN_QUEUE' && state !== 'IN_PROGRESS')
        throw new ModelBadResponseError(this.name, `unknown queue status ${state}`);
      if (Date.now() + this.pollIntervalMs > deadline) throw new ModelTimeoutError(this.name, this.http.timeoutMs);
      await new Promise((resolve) => setTimeout(resolve, this.pollIntervalMs));
    }
    return this.keyed(responseUrl);
  }

  analyse(image: Buffer, hints?: ProductHints): Promise<Analysis> {
    return this.local.analyse(image, hints);
  }

  findProduct(image: Buffer): Promise<ProductFinding> {
    return this.local.findProduct(image);
  }

  /** fal paints backgrounds only: the kind is read as the local engine reads it. */
  readKind(): Promise<KindReading> {
    return this.local.readKind();
  }

  recommendStyles(analysis: Analysis, hints?: ProductHints): Promise<StyleRecommendations> {
    return this.local.recommendStyles(analysis, hints);
  }

  /**
   * The service takes no point, so with a keep tap it is sent a crop around the first one, where the
   * tapped object is the obvious subject, and the cutout is placed back on a canvas of the photo's
   * size. It has no way to drop an object: drop taps are not honoured by this adapter.
   */
  async removeBackground(image: Buffer, options: CutoutOptions = {}): Promise<Buffer> {
    const clean = await normaliseInput(image, { maxSide: 2048 });
    const keep = options.taps?.find((tap) => tap.keep);
    const window = keep ? tapWindow(keep, clean.width, clean.height) : null;
    const sent = window ? await sharp(clean.buffer).extract(window).png().toBuffer() : clean.buffer;
    const result = await this.run(this.backgroundRemovalModel, {
      image_url: dataUrl(sent, window ? 'image/png' : clean.mimeType),
    });
    const cutout = await download(this.http, pickString(this.name, result, ['image', 'url']), this.resultHosts);
    if (!window) return clearTransparent(await decodeResult(this.name, cutout, (image) => image.ensureAlpha().png()));
    const piece = await decodeResult(this.name, cutout, (image) =>
      image.ensureAlpha().resize(window.width, window.height, { fit: 'fill' }).png(),
    );
    const placed = sharp({
      create: { width: clean.width, height: clean.height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    }).composite([{ input: piece, left: window.left, top: window.top }]);
    return clearTransparent(await placed.png().toBuffer());
  }

  async generate(options: GenerateOptions): Promise<GenerateResult> {
    const { size, seed, format } = validate(options);
    const description = options.prompt?.trim() || TEMPLATE_SCENES[options.template ?? 'studio'].description;
    const clean = await normaliseInput((options.image ?? options.cutout)!, { maxSide: 2048 });
    const result = await this.run(this.productShotModel, {
      image_url: dataUrl(clean.buffer, clean.mimeType),
      scene_description: withProductHint(description, options.hints?.title),
      placement_type: 'automatic',
      shot_size: [Math.min(size, 2048), Math.min(size, 2048)],
      num_results: 1,
    });
    const painted = await download(this.http, pickString(this.name, result, ['images', 0, 'url']), this.resultHosts);
    const side = Math.min(size, 2048);
    const pixels = await decodeResult(this.name, painted, (image) =>
      image.resize(side, side, { fit: 'cover' }).removeAlpha().raw(),
    );
    return {
      image: await encode(pixels, side, 3, format, size),
      width: size,
      height: size,
      format,
      mimeType: format === 'png' ? 'image/png' : 'image/jpeg',
      seed,
      // The hosted model places and may repaint the product itself, so where it went is unknown.
      placement: null,
      background: { source: 'hosted', template: options.template ?? null, scene: this.productShotModel, description },
    };
  }

  enhancePrompt(prompt: string, analysis?: Analysis): Promise<string> {
    return this.local.enhancePrompt(prompt, analysis);
  }

  upscale(image: Buffer, factor: number): Promise<Buffer> {
    return this.local.upscale(image, factor);
  }
}

interface FalDetail {
  msg?: string;
  type?: string;
}

/** fal's error `detail`: a list of {loc, msg, type} on validation failures, or a plain string. */
function falDetails(body: unknown): FalDetail[] {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string') return [{ msg: detail }];
  return Array.isArray(detail) ? detail.filter((d): d is FalDetail => Boolean(d) && typeof d === 'object') : [];
}

/** A square around the tap, 60% of the photo's short side: large enough for a product, small enough to leave clutter out. */
function tapWindow(
  point: Point,
  width: number,
  height: number,
): { left: number; top: number; width: number; height: number } {
  const side = Math.max(1, Math.round(0.6 * Math.min(width, height)));
  const left = Math.round(Math.min(Math.max(0, point.x * width - side / 2), width - side));
  const top = Math.round(Math.min(Math.max(0, point.y * height - side / 2), height - side));
  return { left, top, width: side, height: side };
}

/**
 * The model paints the scene around what it sees; the seller's title tells it what the product is
 * (a 'mug' rather than a white cylinder), so props and scale suit it. The scene itself stays as chosen.
 */
export function withProductHint(scene: string, title: string | undefined): string {
  const product = title?.replace(/\s+/g, ' ').trim();
  return product ? `${scene}. The product is: ${product}` : scene;
}
