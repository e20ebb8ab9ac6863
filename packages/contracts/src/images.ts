import Type, { type Static } from 'typebox';
import { CoachWarning } from './coach.js';
import { AUTO_BACKGROUND, PROMPT_MAX_LENGTH, TEMPLATE_HANDLES, type ShotBackground, type TemplateHandle } from './templates.js';

/** Uploads of every endpoint are capped at 10 MB (decisions.md). */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
export const OUTPUTS_PER_REQUEST_MAX = 4;
export const SMART_STYLES_DEFAULT = 4;
export const SMART_STYLES_MAX = 6;
/** The seller's product title: what download names start with and the engine reads as a hint. */
export const PRODUCT_TITLE_MAX_LENGTH = 200;

const RenditionFields = {
  /** 512 px (longest side) WebP */
  thumbnailUrl: Type.String(),
  /** 1280 px (longest side) WebP */
  previewUrl: Type.String(),
};

/** Smaller copies of a stored image: lists, strips and popups show them; only Download and exports fetch `url`. */
export const RenditionUrls = Type.Object(RenditionFields);
export type RenditionUrls = Static<typeof RenditionUrls>;

/** Spec §3 Image, as the upload and the image calls return it. */
export const ImageDto = Type.Object({
  _id: Type.String(),
  fileId: Type.String(),
  name: Type.String(),
  /** The product's title as the seller gave it; null until they do. */
  productTitle: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  originalImage: Type.Object({ url: Type.String(), ...RenditionFields }),
  /** The photo coach's warnings so far (see coach.ts); the API always sends it, older clients' fixtures may not. */
  coach: Type.Optional(Type.Array(CoachWarning)),
});
export type ImageDto = Static<typeof ImageDto>;

export const RecentGenerationDto = Type.Object({
  id: Type.String(),
  imageUrl: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  ...RenditionFields,
});
export type RecentGenerationDto = Static<typeof RecentGenerationDto>;

/** One output in the generations list: the spec's recent generation, with the generation and style slot it belongs to. */
export const GenerationListItem = Type.Object({ ...RecentGenerationDto.properties, generationId: Type.String(), index: Type.Integer({ minimum: 0 }) });
export type GenerationListItem = Static<typeof GenerationListItem>;

/** Most items one page of a list holds. */
export const LIST_PAGE_MAX = 100;
/** Uploads on a page of `GET /api/images` when the caller does not say. */
export const IMAGES_PAGE_DEFAULT = 50;
/** Outputs on a page of `GET /api/images/recent/generations` when the caller does not say (the dashboard's six). */
export const RECENT_GENERATIONS_DEFAULT = 6;

/**
 * A page of a list, newest first. `cursor` is the `nextCursor` of the page before (opaque); a
 * malformed one is refused with 400.
 */
export const ListPageQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIST_PAGE_MAX })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});
export type ListPageQuery = Static<typeof ListPageQuery>;

/** Where the next page starts; null on the last page. */
const NextCursor = Type.Union([Type.String(), Type.Null()]);

/** `GET /api/images`: the user's uploads within their plan's history. */
export const ImageListResponse = Type.Object({ data: Type.Array(ImageDto), nextCursor: NextCursor });
export type ImageListResponse = Static<typeof ImageListResponse>;

/** `GET /api/images/recent/generations`: the user's outputs within their plan's history. */
export const GenerationListResponse = Type.Object({ data: Type.Array(GenerationListItem), nextCursor: NextCursor });
export type GenerationListResponse = Static<typeof GenerationListResponse>;

/** A generated shot by its generation and style slot: what its download through the API names. */
export type ShotRef = Pick<GenerationListItem, 'generationId' | 'index'>;

/**
 * The full shot from the app's own origin, saved under a name (Content-Disposition): downloads
 * need no CORS on the bucket, wherever MinIO or S3 serves the shots' signed links.
 */
export function shotDownloadPath({ generationId, index }: ShotRef): string {
  return `/api/generations/${encodeURIComponent(generationId)}/styles/${index}/download`;
}

/**
 * A point on the upload that marks the product, as fractions 0..1 of its width and height from
 * the top-left: the seller's tap when a photo holds more than one candidate.
 */
export const Focus = Type.Object({ x: Type.Number({ minimum: 0, maximum: 1 }), y: Type.Number({ minimum: 0, maximum: 1 }) }, { additionalProperties: false });
export type Focus = Static<typeof Focus>;

const ImageRef = {
  imageUrl: Type.Optional(Type.String({ maxLength: 4096 })),
  imageId: Type.Optional(Type.String({ maxLength: 64 })),
  fileId: Type.Optional(Type.String({ maxLength: 64 })),
};
/** Which object of the photo is the product; absent, the engine keeps the most salient one. */
const FocusField = { focus: Type.Optional(Focus) };
const ProductText = {
  productTitle: Type.Optional(Type.String({ maxLength: PRODUCT_TITLE_MAX_LENGTH })),
  productDescription: Type.Optional(Type.String({ maxLength: 2000 })),
};
const Prompt = Type.String({ maxLength: PROMPT_MAX_LENGTH });
// An enum schema with the handles' own type: a union built from a mapped array would widen to nothing.
const BackgroundType = Type.Unsafe<TemplateHandle>(Type.String({ enum: [...TEMPLATE_HANDLES] }));
/** A template handle, or 'auto': the engine picks the scene from the product (auto mode, spec §4). */
const ShotBackgroundType = Type.Unsafe<ShotBackground>(Type.String({ enum: [...TEMPLATE_HANDLES, AUTO_BACKGROUND] }));

export const ProductShotRequest = Type.Object({
  ...ImageRef,
  ...ProductText,
  ...FocusField,
  backgroundType: Type.Optional(ShotBackgroundType),
  prompt: Type.Optional(Prompt),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: OUTPUTS_PER_REQUEST_MAX, default: 1 })),
  extractSubjectFirst: Type.Optional(Type.Boolean()),
  upscaleImageFirst: Type.Optional(Type.Boolean()),
});
export type ProductShotRequest = Static<typeof ProductShotRequest>;

export const SmartGenerateRequest = Type.Object({
  ...ImageRef,
  ...ProductText,
  ...FocusField,
  /** How many styles to generate (one credit each); the spec's client always wanted four. */
  styleCount: Type.Optional(Type.Integer({ minimum: 1, maximum: SMART_STYLES_MAX, default: SMART_STYLES_DEFAULT })),
});
export type SmartGenerateRequest = Static<typeof SmartGenerateRequest>;

export const StyleRecommendationsRequest = Type.Object({ ...ImageRef, ...ProductText, ...FocusField });
export type StyleRecommendationsRequest = Static<typeof StyleRecommendationsRequest>;

export const SingleShotRequest = Type.Object({
  ...ImageRef,
  ...ProductText,
  ...FocusField,
  generationId: Type.String({ maxLength: 64 }),
  stylePrompt: Prompt,
  styleName: Type.String({ minLength: 1, maxLength: 100 }),
  styleIndex: Type.Integer({ minimum: 0, maximum: SMART_STYLES_MAX - 1 }),
});
export type SingleShotRequest = Static<typeof SingleShotRequest>;

export const EnhancePromptRequest = Type.Object({
  prompt: Type.String({ minLength: 1, maxLength: PROMPT_MAX_LENGTH }),
  imageUrl: Type.Optional(Type.String({ maxLength: 4096 })),
  ...ProductText,
});
export type EnhancePromptRequest = Static<typeof EnhancePromptRequest>;

export const RemoveBackgroundRequest = Type.Object({ settings: Type.Optional(Type.Record(Type.String(), Type.Unknown())), ...FocusField });
export type RemoveBackgroundRequest = Static<typeof RemoveBackgroundRequest>;

export const GenerateBackgroundRequest = Type.Object({
  backgroundType: Type.Optional(BackgroundType),
  prompt: Type.Optional(Prompt),
  ...FocusField,
});
export type GenerateBackgroundRequest = Static<typeof GenerateBackgroundRequest>;

export interface ProcessedImageDto extends RenditionUrls {
  url: string;
  settings: { backgroundType: string };
}

export interface ProductShotResponse {
  data: { generationId: string; processedImages: ProcessedImageDto[] };
}

export interface SingleShotResponse {
  data: { generationId: string; processedImage: ProcessedImageDto };
}

export interface StyleRecommendationsResponse {
  data: {
    generationId: string;
    productInfo: ProductInfo;
    styles: { name: string; prompt: string }[];
    unsupportedProduct?: boolean;
    message?: string;
  };
}

export interface ProductInfo {
  productTitle: string;
  productDescription: string;
  productType: string;
}

/** 202 answer of any generation call made with `Prefer: respond-async`, and of smart generation. */
export interface AcceptedResponse {
  data: { generationId: string; status: 'queued' };
}

/** A rectangle as fractions 0..1 of the upload's width and height, from the top-left. */
export interface FractionBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One object the cutout model found salient: a product the seller may mean. */
export interface SubjectCandidateDto {
  box: FractionBox;
  /** A point inside the object, as a tap there would send it. */
  point: Focus;
  /** Its share of the photo's saliency, 0..1: the largest, surest object scores highest. */
  score: number;
}

/**
 * What the engine found in an upload, made once per upload by the worker (with its cutout):
 * `pending` until then. `needsFocus` asks the seller to tap their product ("We couldn't tell
 * which is your product: tap it") before generating.
 */
export interface SubjectDto {
  imageId: string;
  status: 'pending' | 'ready' | 'failed';
  needsFocus: boolean;
  /** 0..1: how sure the model is of the product's outline. Null while pending or failed. */
  confidence: number | null;
  candidates: SubjectCandidateDto[];
  /** Why no product could be found (status 'failed'), in words a seller can act on. */
  error: string | null;
  /** Every coach warning of the upload: the pixel checks at once, the product checks once 'ready'. */
  coach?: CoachWarning[];
}

/** What the worker records for an upload: a found product, or why none was. */
export type SubjectFinding =
  | { found: true; needsFocus: boolean; confidence: number; candidates: SubjectCandidateDto[] }
  | { found: false; error: string };

/** The subject as the API and the socket report it; null means the worker has not looked yet. */
export function subjectDto(imageId: string, finding: SubjectFinding | null, coach: CoachWarning[] = []): SubjectDto {
  if (!finding) return { imageId, status: 'pending', needsFocus: false, confidence: null, candidates: [], error: null, coach };
  if (!finding.found) return { imageId, status: 'failed', needsFocus: false, confidence: null, candidates: [], error: finding.error, coach };
  return { imageId, status: 'ready', needsFocus: finding.needsFocus, confidence: finding.confidence, candidates: finding.candidates, error: null, coach };
}

/** `GET /api/images/:id/subject` */
export interface SubjectResponse {
  data: SubjectDto;
}

/** The tap step's prompt, shown on the smart and manual screens when `needsFocus` is set. */
export const TAP_PRODUCT_MESSAGE = "We couldn't tell which is your product: tap it";
