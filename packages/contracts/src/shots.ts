import { Type, type Static } from 'typebox';
import { StringEnum } from './string-enum.js';
import {
  FocusInput,
  PRODUCT_TITLE_MAX_LENGTH,
  RenditionUrls,
  OUTPUTS_PER_REQUEST_MAX,
  SMART_STYLES_DEFAULT,
  SMART_STYLES_MAX,
} from './images.js';
import { ProductInfo } from './products.js';
import { PROMPT_MAX_LENGTH, SHOT_BACKGROUNDS, TEMPLATE_HANDLES } from './templates.js';

/**
 * The image model calls (`POST /api/images/...`): what each asks for and what a synchronous one
 * answers. With `Prefer: respond-async` they answer 202 with AcceptedResponse instead.
 */

const ImageRef = {
  imageUrl: Type.Optional(Type.String({ maxLength: 4096 })),
  imageId: Type.Optional(Type.String({ maxLength: 64 })),
  fileId: Type.Optional(Type.String({ maxLength: 64 })),
};
/**
 * Which object of the photo is the product: a point on it, or up to MAX_TAPS taps that keep or drop
 * what they land on. Absent, the outline the seller fixed decides, else the engine's most salient object.
 */
const FocusField = { focus: Type.Optional(FocusInput) };
const ProductText = {
  productTitle: Type.Optional(Type.String({ maxLength: PRODUCT_TITLE_MAX_LENGTH })),
  productDescription: Type.Optional(Type.String({ maxLength: 2000 })),
};
const Prompt = Type.String({ maxLength: PROMPT_MAX_LENGTH });
const BackgroundType = StringEnum(TEMPLATE_HANDLES);
/** A template handle, or 'auto': the engine picks the scene from the product (auto mode, docs/product-spec.md §4). */
const ShotBackgroundType = StringEnum(SHOT_BACKGROUNDS);

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

export const RemoveBackgroundRequest = Type.Object({
  settings: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  ...FocusField,
});
export type RemoveBackgroundRequest = Static<typeof RemoveBackgroundRequest>;

export const GenerateBackgroundRequest = Type.Object({
  backgroundType: Type.Optional(BackgroundType),
  prompt: Type.Optional(Prompt),
  ...FocusField,
});
export type GenerateBackgroundRequest = Static<typeof GenerateBackgroundRequest>;

export const ProcessedImageDto = Type.Object({
  ...RenditionUrls.properties,
  url: Type.String(),
  settings: Type.Object({ backgroundType: Type.String() }),
});
export type ProcessedImageDto = Static<typeof ProcessedImageDto>;

export const ProductShotResponse = Type.Object({
  data: Type.Object({ generationId: Type.String(), processedImages: Type.Array(ProcessedImageDto) }),
});
export type ProductShotResponse = Static<typeof ProductShotResponse>;

export const SingleShotResponse = Type.Object({
  data: Type.Object({ generationId: Type.String(), processedImage: ProcessedImageDto }),
});
export type SingleShotResponse = Static<typeof SingleShotResponse>;

export const StyleRecommendationsResponse = Type.Object({
  data: Type.Object({
    generationId: Type.String(),
    productInfo: ProductInfo,
    styles: Type.Array(Type.Object({ name: Type.String(), prompt: Type.String() })),
    unsupportedProduct: Type.Optional(Type.Boolean()),
    message: Type.Optional(Type.String()),
  }),
});
export type StyleRecommendationsResponse = Static<typeof StyleRecommendationsResponse>;

export const EnhancePromptResponse = Type.Object({ data: Type.Object({ enhancedPrompt: Type.String() }) });
export type EnhancePromptResponse = Static<typeof EnhancePromptResponse>;
