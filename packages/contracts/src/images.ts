import { Type, type Static } from 'typebox';
import { ShotFiles, type DownloadQuery } from './downloads.js';
import { CoachWarning } from './coach.js';

/** Uploads of every endpoint are capped at 10 MB (docs/decisions.md). */
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

/** docs/product-spec.md §3 Image, as the upload and the image calls return it. */
/**
 * `POST /api/images/upload`'s multipart/form-data fields, for the API document only: the route
 * reads the parts as they stream in rather than validating a parsed body.
 */
export const UploadForm = Type.Object({
  image: Type.String({
    format: 'binary',
    description: `The product photo, at most ${UPLOAD_MAX_BYTES / 1024 / 1024} MB.`,
  }),
  name: Type.Optional(Type.String({ maxLength: 1024, description: 'What to call it; the file name otherwise.' })),
});

export const ImageDto = Type.Object({
  _id: Type.String(),
  fileId: Type.String(),
  name: Type.String(),
  /** The product's title as the seller gave it; null until they do. */
  productTitle: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  originalImage: Type.Object({ url: Type.String(), ...RenditionFields }),
  /** The photo coach's warnings so far (see coach.ts). */
  coach: Type.Array(CoachWarning),
});
export type ImageDto = Static<typeof ImageDto>;

export const ImageResponse = Type.Object({ data: ImageDto });
export type ImageResponse = Static<typeof ImageResponse>;

/** `DELETE /api/images/:id`: the upload is gone; its generations stay in history. */
export const DeleteImageResponse = Type.Object({
  data: Type.Object({ id: Type.String(), deleted: Type.Literal(true) }),
});
export type DeleteImageResponse = Static<typeof DeleteImageResponse>;

/** A path's `:id` as any string: an id that is none of the caller's is simply not found (404). */
export const IdParams = Type.Object({ id: Type.String() });
export type IdParams = Static<typeof IdParams>;

/** A path's `:id` of at most 64 characters: a longer one is refused (400) before any lookup. */
export const ShortIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export type ShortIdParams = Static<typeof ShortIdParams>;

export const RecentGenerationDto = Type.Object({
  id: Type.String(),
  imageUrl: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  ...RenditionFields,
});
export type RecentGenerationDto = Static<typeof RecentGenerationDto>;

/** One output in the generations list: the spec's recent generation, with the generation and style slot it belongs to. */
export const GenerationListItem = Type.Object({
  ...RecentGenerationDto.properties,
  generationId: Type.String(),
  index: Type.Integer({ minimum: 0 }),
  /** The style the output was made in, which heads its popup with the date. */
  name: Type.String(),
  files: ShotFiles,
});
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
/** How many items the whole list holds, so a client numbers every page from the first answer. */
const ListTotal = Type.Integer({ minimum: 0 });

/** `GET /api/images`: the user's uploads within their plan's history. */
export const ImageListResponse = Type.Object({ data: Type.Array(ImageDto), nextCursor: NextCursor, total: ListTotal });
export type ImageListResponse = Static<typeof ImageListResponse>;

/** `GET /api/images/recent/generations`: the user's outputs within their plan's history. */
export const GenerationListResponse = Type.Object({
  data: Type.Array(GenerationListItem),
  nextCursor: NextCursor,
  total: ListTotal,
});
export type GenerationListResponse = Static<typeof GenerationListResponse>;

/** A generated shot by its generation and style slot: what its download through the API names. */
export type ShotRef = Pick<GenerationListItem, 'generationId' | 'index'>;

/**
 * A shot's file from the app's own origin, saved under a name (Content-Disposition): downloads
 * need no CORS on the bucket, wherever MinIO or S3 serves the shots' signed links.
 */
export function shotDownloadPath({ generationId, index }: ShotRef, file?: DownloadQuery['file']): string {
  return `/api/generations/${encodeURIComponent(generationId)}/styles/${index}/download${file ? `?file=${file}` : ''}`;
}

/**
 * A point on the upload that marks the product, as fractions 0..1 of its width and height from
 * the top-left: the seller's tap when a photo holds more than one candidate.
 */
export const Focus = Type.Object(
  { x: Type.Number({ minimum: 0, maximum: 1 }), y: Type.Number({ minimum: 0, maximum: 1 }) },
  { additionalProperties: false },
);
export type Focus = Static<typeof Focus>;

/** One of the seller's taps on the upload: keep the object there (`keep: true`) or drop it. */
export const Tap = Type.Object(
  { x: Type.Number({ minimum: 0, maximum: 1 }), y: Type.Number({ minimum: 0, maximum: 1 }), keep: Type.Boolean() },
  { additionalProperties: false },
);
export type Tap = Static<typeof Tap>;

/** Taps kept per upload: past eight, the seller is repainting the photo rather than fixing a cutout. */
export const MAX_TAPS = 8;

/** The seller's taps in the order they made them: what generations and the outline carry once a call is read. */
export const TapList = Type.Array(Tap, { minItems: 1, maxItems: MAX_TAPS });

/**
 * Today's single point as a call sends it. `keep` is named only to refuse it: the server strips
 * unknown fields of a point, so a lone `{ x, y, keep: false }` would otherwise pass as a keep tap.
 */
const LonePoint = Type.Object(
  {
    x: Type.Number({ minimum: 0, maximum: 1 }),
    y: Type.Number({ minimum: 0, maximum: 1 }),
    keep: Type.Optional(Type.Never()),
  },
  { additionalProperties: false },
);

/** What a call takes as `focus`: today's single point (a keep tap), or the seller's list of taps. */
export const FocusInput = Type.Union([LonePoint, TapList]);
export type FocusInput = Static<typeof FocusInput>;

/** A call's focus as the list of taps every later step uses; a lone point is one keep tap. */
export function tapsOf(focus: FocusInput | null | undefined): Tap[] | undefined {
  if (!focus) return undefined;
  return Array.isArray(focus)
    ? focus.map(({ x, y, keep }) => ({ x, y, keep }))
    : [{ x: focus.x, y: focus.y, keep: true }];
}

function isFraction(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= 1;
}

function isTap(value: unknown): value is Tap {
  const tap = value as Partial<Tap> | null;
  return (
    typeof tap === 'object' && tap !== null && isFraction(tap.x) && isFraction(tap.y) && typeof tap.keep === 'boolean'
  );
}

/**
 * The taps a stored focus records (a generation's request, an upload's outline, a queued job), read
 * back without trusting its shape: rows and jobs written before taps hold a single point, which is
 * one keep tap. Anything else reads as no taps.
 */
export function storedTaps(stored: unknown): Tap[] | undefined {
  if (Array.isArray(stored))
    return stored.length > 0 && stored.length <= MAX_TAPS && stored.every(isTap) ? tapsOf(stored) : undefined;
  const point = stored as Partial<Focus> | null | undefined;
  return point && isFraction(point.x) && isFraction(point.y) ? [{ x: point.x, y: point.y, keep: true }] : undefined;
}

/** `GET /uploads/{id}?fallback=true`: the upload itself, for a seller whose signed link to it failed to load. */
export const UploadFallbackQuery = Type.Object({ fallback: Type.Optional(Type.String()) });
export type UploadFallbackQuery = Static<typeof UploadFallbackQuery>;
