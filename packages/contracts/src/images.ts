import Type, { type Static } from 'typebox';
import { PROMPT_MAX_LENGTH, TEMPLATE_HANDLES, type TemplateHandle } from './templates.js';

/** Uploads of every endpoint are capped at 10 MB (decisions.md). */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
export const OUTPUTS_PER_REQUEST_MAX = 4;
export const SMART_STYLES_DEFAULT = 4;
export const SMART_STYLES_MAX = 6;

/** Spec §3 Image, as the upload and the image calls return it. */
export interface ImageDto {
  _id: string;
  fileId: string;
  name: string;
  createdAt: string;
  originalImage: { url: string };
}

export interface RecentGenerationDto {
  id: string;
  imageUrl: string;
  createdAt: string;
}

const ImageRef = {
  imageUrl: Type.Optional(Type.String({ maxLength: 4096 })),
  imageId: Type.Optional(Type.String({ maxLength: 64 })),
  fileId: Type.Optional(Type.String({ maxLength: 64 })),
};
const ProductText = {
  productTitle: Type.Optional(Type.String({ maxLength: 200 })),
  productDescription: Type.Optional(Type.String({ maxLength: 2000 })),
};
const Prompt = Type.String({ maxLength: PROMPT_MAX_LENGTH });
// An enum schema with the handles' own type: a union built from a mapped array would widen to nothing.
const BackgroundType = Type.Unsafe<TemplateHandle>(Type.String({ enum: [...TEMPLATE_HANDLES] }));

export const ProductShotRequest = Type.Object({
  ...ImageRef,
  ...ProductText,
  backgroundType: Type.Optional(BackgroundType),
  prompt: Type.Optional(Prompt),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: OUTPUTS_PER_REQUEST_MAX, default: 1 })),
  extractSubjectFirst: Type.Optional(Type.Boolean()),
  upscaleImageFirst: Type.Optional(Type.Boolean()),
});
export type ProductShotRequest = Static<typeof ProductShotRequest>;

export const SmartGenerateRequest = Type.Object({
  ...ImageRef,
  ...ProductText,
  /** How many styles to generate (one credit each); the spec's client always wanted four. */
  styleCount: Type.Optional(Type.Integer({ minimum: 1, maximum: SMART_STYLES_MAX, default: SMART_STYLES_DEFAULT })),
});
export type SmartGenerateRequest = Static<typeof SmartGenerateRequest>;

export const StyleRecommendationsRequest = Type.Object({ ...ImageRef, ...ProductText });
export type StyleRecommendationsRequest = Static<typeof StyleRecommendationsRequest>;

export const SingleShotRequest = Type.Object({
  ...ImageRef,
  ...ProductText,
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

export const RemoveBackgroundRequest = Type.Object({ settings: Type.Optional(Type.Record(Type.String(), Type.Unknown())) });
export type RemoveBackgroundRequest = Static<typeof RemoveBackgroundRequest>;

export const GenerateBackgroundRequest = Type.Object({
  backgroundType: Type.Optional(BackgroundType),
  prompt: Type.Optional(Prompt),
});
export type GenerateBackgroundRequest = Static<typeof GenerateBackgroundRequest>;

export interface ProcessedImageDto {
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
