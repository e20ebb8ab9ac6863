// Over 250 lines: each ImageModel call as OpenAI's request and answer, with the checks of what comes back.
import sharp from 'sharp';
import { PROMPT_MAX_LENGTH, SUPPORTED_PRODUCT_KINDS, UNSUPPORTED_PRODUCT_KINDS } from '@prodshot/contracts';
import type { ProductKind } from '@prodshot/contracts';
import { InvalidRequestError, ModelBadResponseError, ModelMisconfiguredError, ModelRejectedError } from '../errors.js';
import type { ImagingError } from '../errors.js';
import { settleKind } from '../local/analyse.js';
import { LocalImageModel, encode, placedProduct, validate } from '../local/local-model.js';
import { resolveScene } from '../local/prompt/scene-from-prompt.js';
import { TEMPLATE_SCENES } from '../local/scenes/presets.js';
import type {
  Analysis,
  CallContext,
  CutoutOptions,
  ProductFinding,
  GenerateOptions,
  GenerateResult,
  ImageModel,
  KindReading,
  ProductHints,
  StyleRecommendations,
} from '../types.js';
import type { SalientObjectModel } from '../local/saliency/salient-model.js';
import { alertOperator, type OperatorAlert } from './alert-operator.js';
import { dataUrl, decodeResult, download, requestJson, statusError } from './http.js';
import type { FetchLike, HostAllowlist, HttpFailure, HttpOptions } from './http.js';
import { EDIT_SIZE, editInputs } from './openai-edit-inputs.js';
import { chatText, openAIError, parseJsonObject, sellerHash } from './openai-wire.js';

export interface OpenAIOptions {
  apiKey: string;
  /** Any OpenAI-compatible server; default https://api.openai.com/v1. */
  baseUrl?: string;
  /** Model for /images/edits; default 'gpt-image-1'. */
  imageModel?: string;
  /** Vision-capable chat model; default 'gpt-4o-mini'. */
  chatModel?: string;
  fetch?: FetchLike;
  timeoutMs?: number;
  /** The on-device cutout model, for finding the product where this service does not. */
  salient?: SalientObjectModel;
  /** Where errors the operator must fix (quota, model name, our own bad request) are reported; default stderr. */
  alert?: OperatorAlert;
}

/** Error codes OpenAI gives when its safety system declines a request (the seller's to change). */
const REFUSAL_CODES: ReadonlySet<string> = new Set(['content_policy_violation', 'moderation_blocked']);
const KINDS = [...SUPPORTED_PRODUCT_KINDS, ...UNSUPPORTED_PRODUCT_KINDS];

/**
 * OpenAI-compatible adapter: image edits paint the background around our own cutout, chat with
 * vision analyses products, recommends styles and enhances prompts. The product's own pixels
 * are pasted back over the painted frame, so the product keeps its colours whatever the model
 * did. Cutout and upscaling stay local: the API has no endpoint for them.
 */
export class OpenAIImageModel implements ImageModel {
  readonly name = 'openai';
  private readonly http: HttpOptions;
  private readonly baseUrl: string;
  private readonly imageModel: string;
  private readonly chatModel: string;
  private readonly apiKey: string;
  private readonly local: LocalImageModel;
  /** Result URLs are fetched only from the configured server's own origin. */
  private readonly resultHosts: HostAllowlist;
  private readonly alert: OperatorAlert;

  constructor(options: OpenAIOptions) {
    if (!options.apiKey) throw new InvalidRequestError('The OpenAI adapter needs an API key.');
    this.local = new LocalImageModel(options.salient ? { salient: options.salient } : {});
    this.apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
    this.imageModel = options.imageModel ?? 'gpt-image-1';
    this.chatModel = options.chatModel ?? 'gpt-4o-mini';
    this.alert = options.alert ?? alertOperator;
    this.resultHosts = { origins: [new URL(this.baseUrl).origin], hosts: [] };
    this.http = {
      model: this.name,
      fetch: options.fetch ?? fetch,
      timeoutMs: options.timeoutMs ?? 120_000,
      classify: (failure) => this.classify(failure),
    };
  }

  /**
   * Reads OpenAI's error object: its safety system's refusals are the seller's to act on; a missing
   * quota, an unknown model or a request we built wrong are the operator's, said loudly, not retried.
   */
  private classify(failure: HttpFailure): ImagingError {
    const error = openAIError(failure.body);
    const providerMessage = error.message;
    if (failure.status === 429 && (error.code === 'insufficient_quota' || error.type === 'insufficient_quota'))
      return this.misconfigured('quota', failure, providerMessage);
    const common = statusError(this.name, failure);
    if (common) return common;
    if ((error.code && REFUSAL_CODES.has(error.code)) || error.type === 'image_generation_user_error')
      return new ModelRejectedError(this.name, 'content_policy', { providerMessage });
    if (failure.status === 404 || error.code === 'model_not_found' || error.param === 'model')
      return this.misconfigured('model', failure, providerMessage);
    return this.misconfigured('request', failure, providerMessage);
  }

  private misconfigured(
    problem: ModelMisconfiguredError['problem'],
    failure: HttpFailure,
    providerMessage: string | undefined,
  ): ModelMisconfiguredError {
    const error = new ModelMisconfiguredError(
      this.name,
      problem,
      providerMessage === undefined ? {} : { providerMessage },
    );
    this.alert(error, { status: failure.status, body: failure.body });
    return error;
  }

  private post(path: string, body: string | FormData): Promise<unknown> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}` };
    if (typeof body === 'string') headers['content-type'] = 'application/json';
    return requestJson(this.http, `${this.baseUrl}${path}`, { method: 'POST', headers, body });
  }

  /** One chat completion whose answer must be a JSON object. */
  private async chatJson(
    system: string,
    user: string,
    context: CallContext | undefined,
    image?: Buffer,
  ): Promise<Record<string, unknown>> {
    const content: unknown[] = [{ type: 'text', text: user }];
    if (image) content.push({ type: 'image_url', image_url: { url: dataUrl(image, 'image/jpeg') } });
    const seller = sellerHash(context);
    const body = await this.post(
      '/chat/completions',
      JSON.stringify({
        model: this.chatModel,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content },
        ],
        response_format: { type: 'json_object' },
        // The document deprecates chat's `user` for `safety_identifier`, which serves the same abuse checks.
        ...(seller ? { safety_identifier: seller } : {}),
      }),
    );
    return parseJsonObject(this.name, chatText(this.name, body));
  }

  async analyse(image: Buffer, hints?: ProductHints, context?: CallContext): Promise<Analysis> {
    const [analysis, reading] = await Promise.all([this.local.analyse(image, hints), this.readKind(image, context)]);
    return { ...analysis, ...settleKind(reading, hints) };
  }

  /** The vision model's reading of the photo alone: a title sent with it could talk it into a refusal. */
  async readKind(image: Buffer, context?: CallContext): Promise<KindReading> {
    const preview = await sharp(image).resize(512, 512, { fit: 'inside' }).jpeg({ quality: 80 }).toBuffer();
    const answer = await this.chatJson(
      `You classify product photos for an online store. Answer JSON {"kind": one of ${JSON.stringify([...KINDS, 'unknown'])}, "confidence": 0..1}. Say "unknown" when unsure.`,
      'What kind of product does this photo show?',
      context,
      preview,
    );
    const kind = (KINDS as readonly string[]).includes(String(answer.kind)) ? (answer.kind as ProductKind) : 'unknown';
    const confidence = typeof answer.confidence === 'number' ? Math.min(1, Math.max(0, answer.confidence)) : 0.5;
    return { kind, confidence: kind === 'unknown' ? 0 : confidence };
  }

  findProduct(image: Buffer): Promise<ProductFinding> {
    return this.local.findProduct(image);
  }

  async recommendStyles(
    analysis: Analysis,
    hints?: ProductHints,
    context?: CallContext,
  ): Promise<StyleRecommendations> {
    const answer = await this.chatJson(
      'You art-direct product photos. Answer JSON {"productInfo": {"productTitle", "productDescription", "productType"}, "styles": [{"name", "prompt"}]} with 3 to 6 background styles suited to the product; each prompt describes only the background scene.',
      JSON.stringify({
        kind: analysis.kind,
        palette: analysis.palette,
        brightness: analysis.brightness,
        title: hints?.title,
        description: hints?.description,
      }),
      context,
    );
    const info = answer.productInfo as Record<string, unknown> | undefined;
    const styles = Array.isArray(answer.styles)
      ? answer.styles
          .filter(
            (s): s is { name: string; prompt: string } => typeof s?.name === 'string' && typeof s?.prompt === 'string',
          )
          .map((s) => ({ name: s.name.slice(0, 80), prompt: s.prompt.slice(0, PROMPT_MAX_LENGTH) }))
      : [];
    if (!info || styles.length < 3) throw new ModelBadResponseError(this.name, 'fewer than 3 styles');
    return {
      productInfo: {
        productTitle: String(info.productTitle ?? hints?.title ?? ''),
        productDescription: String(info.productDescription ?? hints?.description ?? ''),
        productType: String(info.productType ?? analysis.kind),
      },
      styles: styles.slice(0, 6),
    };
  }

  removeBackground(image: Buffer, options?: CutoutOptions): Promise<Buffer> {
    return this.local.removeBackground(image, options);
  }

  async generate(options: GenerateOptions, context?: CallContext): Promise<GenerateResult> {
    const { size, seed, format } = validate(options);
    const { spec } = resolveScene(options.template, options.prompt);
    const prompt = options.prompt?.trim() || TEMPLATE_SCENES[options.template ?? 'studio'].description;
    // The edit endpoint only repaints around the product: it is cut out here, where a tap can choose it.
    const cutout = options.cutout ?? (await this.local.removeBackground(options.image!, { taps: options.taps }));
    const product = await placedProduct(cutout, true, spec, EDIT_SIZE);
    const layer = {
      input: product.layer.rgba,
      raw: { width: product.layer.box.width, height: product.layer.box.height, channels: 4 as const },
      left: product.layer.box.x,
      top: product.layer.box.y,
    };
    const { image, mask } = await editInputs(layer);
    const form = new FormData();
    form.append('model', this.imageModel);
    form.append('prompt', `Product photo background: ${prompt}. Keep the product exactly as it is.`);
    form.append('size', `${EDIT_SIZE}x${EDIT_SIZE}`);
    form.append('n', '1');
    // GPT image models always answer base64; dall-e-2 answers a URL unless asked, and only it takes the field.
    if (this.imageModel.startsWith('dall-e')) form.append('response_format', 'b64_json');
    const seller = sellerHash(context);
    if (seller) form.append('user', seller);
    form.append('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'product.png');
    form.append('mask', new Blob([new Uint8Array(mask)], { type: 'image/png' }), 'mask.png');
    const painted = await this.editedImage(await this.post('/images/edits', form));
    const pixels = await decodeResult(this.name, painted, (frame) =>
      frame.resize(EDIT_SIZE, EDIT_SIZE, { fit: 'cover' }).composite([layer]).removeAlpha().raw(),
    );
    const factor = size / EDIT_SIZE;
    return {
      image: await encode(pixels, EDIT_SIZE, 3, format, size),
      width: size,
      height: size,
      format,
      mimeType: format === 'png' ? 'image/png' : 'image/jpeg',
      seed,
      placement: {
        ...product.placement,
        box: scaleBox(product.placement.box, factor),
        scale: product.placement.scale * factor,
      },
      background: { source: 'hosted', template: options.template ?? null, scene: this.imageModel, description: prompt },
    };
  }

  async enhancePrompt(prompt: string, analysis?: Analysis, context?: CallContext): Promise<string> {
    if (!prompt.trim()) throw new InvalidRequestError('Please describe a background to enhance.');
    const answer = await this.chatJson(
      `You write background descriptions for product photos. Answer JSON {"prompt": string} under ${PROMPT_MAX_LENGTH} characters, richer than the seller's but faithful to it.`,
      JSON.stringify({ prompt, kind: analysis?.kind, palette: analysis?.palette }),
      context,
    );
    if (typeof answer.prompt !== 'string' || !answer.prompt.trim())
      throw new ModelBadResponseError(this.name, 'no prompt in the answer');
    return answer.prompt.trim().slice(0, PROMPT_MAX_LENGTH);
  }

  upscale(image: Buffer, factor: number): Promise<Buffer> {
    return this.local.upscale(image, factor);
  }

  private editedImage(body: unknown): Promise<Buffer> {
    const first = (body as { data?: { b64_json?: unknown; url?: unknown }[] } | null)?.data?.[0];
    if (typeof first?.b64_json === 'string' && first.b64_json)
      return Promise.resolve(Buffer.from(first.b64_json, 'base64'));
    if (typeof first?.url === 'string' && first.url) return download(this.http, first.url, this.resultHosts);
    return Promise.reject(new ModelBadResponseError(this.name, 'no image in the answer'));
  }
}

function scaleBox(box: { x: number; y: number; width: number; height: number }, factor: number) {
  return { x: box.x * factor, y: box.y * factor, width: box.width * factor, height: box.height * factor };
}
