import sharp from 'sharp';
import { PROMPT_MAX_LENGTH, SUPPORTED_PRODUCT_KINDS, UNSUPPORTED_PRODUCT_KINDS, SUPPORTED_PRODUCT_LIST, UNSUPPORTED_PRODUCT_MESSAGE } from '@prodshot/contracts';
import type { ProductKind } from '@prodshot/contracts';
import { InvalidRequestError, ModelBadResponseError } from '../errors.js';
import { LocalImageModel, encode, placedProduct, validate } from '../local/local-model.js';
import { resolveScene } from '../local/prompt/scene-from-prompt.js';
import { TEMPLATE_SCENES } from '../local/scenes/presets.js';
import type { Analysis, CutoutOptions, ProductFinding, GenerateOptions, GenerateResult, ImageModel, ProductHints, StyleRecommendations } from '../types.js';
import type { SalientObjectModel } from '../local/saliency/salient-model.js';
import { dataUrl, download, pickString, requestJson } from './http.js';
import type { FetchLike, HttpOptions } from './http.js';

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
}

/** The edit endpoint's square size; the shot is resized from it to the plan's size. */
const EDIT_SIZE = 1024;
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

  constructor(options: OpenAIOptions) {
    if (!options.apiKey) throw new InvalidRequestError('The OpenAI adapter needs an API key.');
    this.local = new LocalImageModel(options.salient ? { salient: options.salient } : {});
    this.apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
    this.imageModel = options.imageModel ?? 'gpt-image-1';
    this.chatModel = options.chatModel ?? 'gpt-4o-mini';
    this.http = { model: this.name, fetch: options.fetch ?? fetch, timeoutMs: options.timeoutMs ?? 120_000 };
  }

  /** One chat completion whose answer must be a JSON object. */
  private async chatJson(system: string, user: string, image?: Buffer): Promise<Record<string, unknown>> {
    const content: unknown[] = [{ type: 'text', text: user }];
    if (image) content.push({ type: 'image_url', image_url: { url: dataUrl(image, 'image/jpeg') } });
    const body = await requestJson(this.http, `${this.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: this.chatModel,
        messages: [{ role: 'system', content: system }, { role: 'user', content }],
        response_format: { type: 'json_object' },
      }),
    });
    const text = pickString(this.name, body, ['choices', 0, 'message', 'content']);
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // fall through to the typed error below
    }
    throw new ModelBadResponseError(this.name, 'the chat answer was not a JSON object');
  }

  async analyse(image: Buffer, hints?: ProductHints): Promise<Analysis> {
    const analysis = await this.local.analyse(image, hints);
    const preview = await sharp(image).resize(512, 512, { fit: 'inside' }).jpeg({ quality: 80 }).toBuffer();
    const answer = await this.chatJson(
      `You classify product photos for an online store. Answer JSON {"kind": one of ${JSON.stringify([...KINDS, 'unknown'])}, "confidence": 0..1}. Say "unknown" when unsure.`,
      `Seller title: ${hints?.title ?? '(none)'}\nSeller description: ${hints?.description ?? '(none)'}`,
      preview,
    );
    const kind = (KINDS as readonly string[]).includes(String(answer.kind)) ? (answer.kind as ProductKind) : 'unknown';
    const confidence = typeof answer.confidence === 'number' ? Math.min(1, Math.max(0, answer.confidence)) : 0.5;
    const unsupported = (UNSUPPORTED_PRODUCT_KINDS as readonly string[]).includes(kind);
    return {
      ...analysis,
      kind,
      kindConfidence: kind === 'unknown' ? 0 : confidence,
      supported: !unsupported,
      unsupported: unsupported ? { message: UNSUPPORTED_PRODUCT_MESSAGE, supportedList: SUPPORTED_PRODUCT_LIST } : null,
    };
  }

  findProduct(image: Buffer): Promise<ProductFinding> {
    return this.local.findProduct(image);
  }

  async recommendStyles(analysis: Analysis, hints?: ProductHints): Promise<StyleRecommendations> {
    const answer = await this.chatJson(
      'You art-direct product photos. Answer JSON {"productInfo": {"productTitle", "productDescription", "productType"}, "styles": [{"name", "prompt"}]} with 3 to 6 background styles suited to the product; each prompt describes only the background scene.',
      JSON.stringify({ kind: analysis.kind, palette: analysis.palette, brightness: analysis.brightness, title: hints?.title, description: hints?.description }),
    );
    const info = answer.productInfo as Record<string, unknown> | undefined;
    const styles = Array.isArray(answer.styles)
      ? answer.styles
          .filter((s): s is { name: string; prompt: string } => typeof s?.name === 'string' && typeof s?.prompt === 'string')
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

  async generate(options: GenerateOptions): Promise<GenerateResult> {
    const { size, seed, format } = validate(options);
    const { spec } = resolveScene(options.template, options.prompt);
    const prompt = options.prompt?.trim() || TEMPLATE_SCENES[options.template ?? 'studio'].description;
    // The edit endpoint only repaints around the product: it is cut out here, where a tap can choose it.
    const cutout = options.cutout ?? (await this.local.removeBackground(options.image!, { point: options.focus }));
    const product = await placedProduct(cutout, true, spec, EDIT_SIZE);
    // The transparent area of the canvas is what the edit endpoint repaints.
    const canvas = await sharp({ create: { width: EDIT_SIZE, height: EDIT_SIZE, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: product.layer.rgba, raw: { width: product.layer.box.width, height: product.layer.box.height, channels: 4 }, left: product.layer.box.x, top: product.layer.box.y }])
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('model', this.imageModel);
    form.append('prompt', `Product photo background: ${prompt}. Keep the product exactly as it is.`);
    form.append('size', `${EDIT_SIZE}x${EDIT_SIZE}`);
    form.append('n', '1');
    form.append('image', new Blob([new Uint8Array(canvas)], { type: 'image/png' }), 'product.png');
    const body = await requestJson(this.http, `${this.baseUrl}/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.apiKey}` },
      body: form,
    });
    const first = (body as { data?: { b64_json?: string; url?: string }[] } | null)?.data?.[0];
    let painted: Buffer;
    if (first?.b64_json) painted = Buffer.from(first.b64_json, 'base64');
    else if (first?.url) painted = await download(this.http, first.url);
    else throw new ModelBadResponseError(this.name, 'no image in the answer');
    const pixels = await sharp(painted)
      .resize(EDIT_SIZE, EDIT_SIZE, { fit: 'cover' })
      .composite([{ input: product.layer.rgba, raw: { width: product.layer.box.width, height: product.layer.box.height, channels: 4 }, left: product.layer.box.x, top: product.layer.box.y }])
      .removeAlpha()
      .raw()
      .toBuffer()
      .catch((error: unknown) => {
        throw new ModelBadResponseError(this.name, 'the image could not be decoded', { cause: error });
      });
    const factor = size / EDIT_SIZE;
    return {
      image: await encode(pixels, EDIT_SIZE, 3, format, size),
      width: size,
      height: size,
      format,
      mimeType: format === 'png' ? 'image/png' : 'image/jpeg',
      seed,
      placement: { ...product.placement, box: scaleBox(product.placement.box, factor), scale: product.placement.scale * factor },
      background: { source: 'hosted', template: options.template ?? null, scene: this.imageModel, description: prompt },
    };
  }

  async enhancePrompt(prompt: string, analysis?: Analysis): Promise<string> {
    if (!prompt.trim()) throw new InvalidRequestError('Please describe a background to enhance.');
    const answer = await this.chatJson(
      `You write background descriptions for product photos. Answer JSON {"prompt": string} under ${PROMPT_MAX_LENGTH} characters, richer than the seller's but faithful to it.`,
      JSON.stringify({ prompt, kind: analysis?.kind, palette: analysis?.palette }),
    );
    if (typeof answer.prompt !== 'string' || !answer.prompt.trim()) throw new ModelBadResponseError(this.name, 'no prompt in the answer');
    return answer.prompt.trim().slice(0, PROMPT_MAX_LENGTH);
  }

  upscale(image: Buffer, factor: number): Promise<Buffer> {
    return this.local.upscale(image, factor);
  }
}

function scaleBox(box: { x: number; y: number; width: number; height: number }, factor: number) {
  return { x: box.x * factor, y: box.y * factor, width: box.width * factor, height: box.height * factor };
}
