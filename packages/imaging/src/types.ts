import type { ProductInfo, ProductKind, Tap, TemplateHandle } from '@prodshot/contracts';

/** What the seller told us about the product; engines may lean on it to guess the kind. */
export interface ProductHints {
  title?: string;
  description?: string;
}

/** A rectangle in pixels of the image it refers to. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A point as fractions 0..1 of the image's width and height from the top-left (a seller's tap). */
export interface Point {
  x: number;
  y: number;
}

/** Who a call is made for: hosted adapters pass it on to the provider's abuse monitoring. */
export interface CallContext {
  /** Our seller's id; sent to providers only as a hash (OpenAI's `user` and `safety_identifier`). */
  sellerId?: string;
}

export interface CutoutOptions {
  /**
   * The seller's taps, as fractions of the photo: a keep tap's object stays whole, a drop tap's object
   * goes, whatever its colour. None: the engine chooses the product itself.
   */
  taps?: readonly Tap[];
}

/** An object the cutout found salient: one the seller may mean by "my product". */
export interface SubjectCandidate {
  /** Bounding box in pixels of the normalised image. */
  box: Box;
  /** A point inside the object (fractions), where a tap would select it. */
  point: Point;
  /** Its share of the photo's saliency, 0..1. */
  score: number;
}

export interface PaletteColour {
  /** sRGB hex, e.g. '#1f5fd6'. */
  hex: string;
  /** Share of the subject's pixels near this colour, 0..1. */
  share: number;
}

/** A product kind as read from a photo, with how sure the reader is (0 for 'unknown'). */
export interface KindReading {
  kind: ProductKind;
  confidence: number;
}

/** What analyse() learns about a product photo. Plain data, so it can travel in job payloads. */
export interface Analysis {
  width: number;
  height: number;
  /** width / height of the normalised image. */
  aspect: number;
  subject: {
    /** Bounding box of the product in the normalised image. */
    box: Box;
    /** Share of the image the product covers, 0..1. */
    coverage: number;
    /** True when the upload already had a usable alpha channel. */
    fromAlpha: boolean;
    /** Greyscale PNG mask of the product (255 = product) at `maskWidth` × `maskHeight`. */
    maskPng: Buffer;
    maskWidth: number;
    maskHeight: number;
    /** Every object that could be the product, most salient first (one for a clear photo). */
    candidates: SubjectCandidate[];
    /** 0..1: how sure the engine is of the product's outline. */
    confidence: number;
    /** True when the engine cannot tell which object is the product: ask the seller to tap it. */
    needsFocus: boolean;
  } | null;
  /** Dominant colours of the product (or of the whole image when no subject was found). */
  palette: PaletteColour[];
  /** Mean relative luminance of the subject, 0 (black) .. 1 (white). */
  brightness: number;
  kind: ProductKind;
  /** 0..1; 'unknown' (0) where neither the photo nor a supported hint names a kind. */
  kindConfidence: number;
  supported: boolean;
  /** docs/product-spec.md §8 message and list, set when the kind is known to be unsupported. */
  unsupported: { message: string; supportedList: readonly string[] } | null;
}

/** Where the product is in a photo, and whether the seller must say which object it is. */
export interface ProductFinding {
  /** The normalised photo's size, which boxes refer to. */
  width: number;
  height: number;
  subject: NonNullable<Analysis['subject']>;
}

export interface StyleSuggestion {
  name: string;
  prompt: string;
}

export interface StyleRecommendations {
  productInfo: ProductInfo;
  /** 3 to 6 styles chosen for this product. */
  styles: StyleSuggestion[];
}

export type OutputFormat = 'png' | 'jpeg';

/** Shot sizes by plan: 1024 default, 2048 HD, 4096 ultra HD (docs/decisions.md). */
export const SHOT_SIZES = [1024, 2048, 4096] as const;
export type ShotSize = (typeof SHOT_SIZES)[number];

interface GenerateCommon {
  /** One of the nine designer templates. When both are given, the template wins and the prompt refines it. */
  template?: TemplateHandle;
  /** A custom background description (spec: at most 1000 characters). */
  prompt?: string;
  /** Square output side in pixels; default 1024. */
  size?: ShotSize;
  /** Same seed, same inputs → same bytes (local engine). Default 1. */
  seed?: number;
  format?: OutputFormat;
  hints?: ProductHints;
  /** With a raw photo: the seller's taps (see CutoutOptions). */
  taps?: readonly Tap[];
  /**
   * Smaller WebP copies to make beside the shot, by name and longest side. An engine that renders
   * the pixels itself makes them while it encodes the shot; one that does not leaves them to the caller.
   */
  renditions?: Record<string, number>;
}

/** Either a raw photo (the engine cuts it out) or a ready RGBA cutout (used as-is). */
export type GenerateOptions =
  (GenerateCommon & { image: Buffer; cutout?: never }) | (GenerateCommon & { cutout: Buffer; image?: never });

/** Where the product's pixels went, so callers (and the bench) can map shot pixels back to the source. */
export interface Placement {
  /** The region of the normalised source image that was placed. */
  sourceBox: Box;
  /** Where that region landed in the shot, in shot pixels. */
  box: Box;
  /** Shot pixels per source pixel. */
  scale: number;
}

export interface BackgroundInfo {
  /** 'template' or 'prompt' for the local engine; 'hosted' when a remote model drew it. */
  source: 'template' | 'prompt' | 'hosted';
  template: TemplateHandle | null;
  /** Scene the local engine rendered (e.g. 'beach'), or the hosted model's name. */
  scene: string;
  /** A short human description of the background. */
  description: string;
}

export interface GenerateResult {
  image: Buffer;
  width: number;
  height: number;
  format: OutputFormat;
  mimeType: 'image/png' | 'image/jpeg';
  seed: number;
  /** Null when a hosted model repainted the whole frame and the product's position is not known. */
  placement: Placement | null;
  background: BackgroundInfo;
  /** The renditions asked for, when the engine made them (the local engine does). */
  renditions?: Record<string, Buffer>;
}

/**
 * The image model the workers call. Buffers and options in, images and metadata out; it knows
 * nothing of queues, HTTP or storage. Errors are always `ImagingError`s (see errors.ts).
 */
export interface ImageModel {
  /** 'local' for the built-in compositor, otherwise the hosted adapter's name. */
  readonly name: string;
  /** Subject mask and box, palette, brightness, aspect and the product's kind (settleKind: the photo's reading, the title a hint). */
  analyse(image: Buffer, hints?: ProductHints, context?: CallContext): Promise<Analysis>;
  /**
   * The product's place and the other candidates, found on the device whatever the engine (no
   * hosted call): what an upload is checked with. Rejects with `EmptyImageError` when none is found.
   */
  findProduct(image: Buffer): Promise<ProductFinding>;
  /**
   * The product's kind as the photo alone shows it, no title asked: what decides whether Prodshot
   * shoots it. The local engine has no classifier and reads none ('unknown'); a hosted one asks its
   * vision model.
   */
  readKind(image: Buffer, context?: CallContext): Promise<KindReading>;
  /** Product info and 3–6 background styles suited to the product. */
  recommendStyles(analysis: Analysis, hints?: ProductHints, context?: CallContext): Promise<StyleRecommendations>;
  /** RGBA PNG cutout of the product at the normalised image's resolution (at most 2560 px a side). */
  removeBackground(image: Buffer, options?: CutoutOptions): Promise<Buffer>;
  /** A finished product shot on a template or prompt-described background. */
  generate(options: GenerateOptions, context?: CallContext): Promise<GenerateResult>;
  /** A richer background prompt built from a short one. */
  enhancePrompt(prompt: string, analysis?: Analysis, context?: CallContext): Promise<string>;
  /** The image enlarged by `factor` (1 < factor ≤ 4), same format as given when PNG or JPEG. */
  upscale(image: Buffer, factor: number): Promise<Buffer>;
}
