import { Type, type Static } from 'typebox';
import { CoachWarning } from './coach.js';
import { Focus, FocusInput, storedTaps, TapList, type Tap } from './images.js';
import { ProductReading } from './products.js';

/** A rectangle as fractions 0..1 of the upload's width and height, from the top-left. */
export const FractionBox = Type.Object({
  x: Type.Number(),
  y: Type.Number(),
  width: Type.Number(),
  height: Type.Number(),
});
export type FractionBox = Static<typeof FractionBox>;

/** One object the cutout model found salient: a product the seller may mean. */
export const SubjectCandidateDto = Type.Object({
  box: FractionBox,
  /** A point inside the object, as a tap there would send it. */
  point: Focus,
  /** Its share of the photo's saliency, 0..1: the largest, surest object scores highest. */
  score: Type.Number(),
});
export type SubjectCandidateDto = Static<typeof SubjectCandidateDto>;

/**
 * Why the engine is unsure of the outline it cut: the mask runs along the photo's frame, falls in
 * several large parts, fills most of the photo, the model scored it low, or the photo holds several
 * objects the product could be.
 */
export const OutlineDoubt = Type.Union([
  Type.Literal('touches_frame'),
  Type.Literal('several_parts'),
  Type.Literal('large_share'),
  Type.Literal('low_score'),
  Type.Literal('several_objects'),
]);
export type OutlineDoubt = Static<typeof OutlineDoubt>;

/**
 * What Prodshot took for the product, shown before any credit is held: the cutout (the product on
 * transparent, longest side at most OUTLINE_PREVIEW_SIDE), whether the engine is unsure of it and
 * why, and the seller's answer: `focus` is their taps, in the order made (the outline was fixed),
 * `confirmed` their "Yes, that's my product". `needsConfirmation` is set while an unsure outline
 * has neither: paid calls without a focus of their own answer 409 `outline_unconfirmed` then.
 */
export const OutlineDto = Type.Object({
  url: Type.Union([Type.String(), Type.Null()]),
  unsure: Type.Boolean(),
  reasons: Type.Array(OutlineDoubt),
  confirmed: Type.Boolean(),
  focus: Type.Union([TapList, Type.Null()]),
  needsConfirmation: Type.Boolean(),
});
export type OutlineDto = Static<typeof OutlineDto>;

/** Longest side of the stored outline preview, in pixels: enough for a phone's full width at 2x. */
export const OUTLINE_PREVIEW_SIDE = 768;

/**
 * The outline as the worker stores it on the upload (its preview's storage key, not a URL). `focus`
 * is the seller's taps; outlines stored before taps hold a single point (read with storedTaps).
 */
export interface UploadOutline {
  key: string;
  unsure: boolean;
  reasons: OutlineDoubt[];
  confirmed: boolean;
  focus: Tap[] | Focus | null;
}

/** An unsure outline the seller has neither confirmed nor fixed with a tap: no credit is held on it. */
export function outlineNeedsConfirmation(
  outline: Pick<UploadOutline, 'unsure' | 'confirmed' | 'focus'> | null,
): boolean {
  return Boolean(outline && outline.unsure && !outline.confirmed && !outline.focus);
}

/** `POST /api/images/:id/outline`: the outline again, for the seller's taps (none: the engine's own pick). */
export const OutlineRequest = Type.Object({ focus: Type.Optional(FocusInput) }, { additionalProperties: false });
export type OutlineRequest = Static<typeof OutlineRequest>;

/** The outline step's prompt, shown under the cutout on the upload screens. */
export const OUTLINE_PROMPT = 'Is this your product? Tap to fix';
/** The outline step's confirm button. */
export const OUTLINE_CONFIRM_LABEL = "Yes, that's my product";
/** 409 `outline_unconfirmed`: a paid call on an unsure outline the seller has not looked at. */
export const OUTLINE_UNCONFIRMED_MESSAGE = 'Is this your product? Check its outline and confirm it before generating.';

/**
 * What the engine found in an upload, made once per upload by the worker (with its cutout):
 * `pending` until then. `needsFocus` asks the seller to tap their product ("We couldn't tell
 * which is your product: tap it") before generating.
 */
export const SubjectDto = Type.Object({
  imageId: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('ready'), Type.Literal('failed')]),
  needsFocus: Type.Boolean(),
  /** 0..1: how sure the model is of the product's outline. Null while pending or failed. */
  confidence: Type.Union([Type.Number(), Type.Null()]),
  candidates: Type.Array(SubjectCandidateDto),
  /** Why no product could be found (status 'failed'), in words a seller can act on. */
  error: Type.Union([Type.String(), Type.Null()]),
  /**
   * Status 'failed' only: the engine saw no product in a photo it could read, so a keep tap on the
   * product (POST /images/:id/outline) may still find it. False for a file with nothing to tap.
   */
  tapMayFind: Type.Optional(Type.Boolean()),
  /** Every coach warning of the upload: the pixel checks at once, the product checks once 'ready'. */
  coach: Type.Optional(Type.Array(CoachWarning)),
  /** The cutout Prodshot would use, once the worker has made it (null before, and for a photo with no product). */
  outline: Type.Optional(Type.Union([OutlineDto, Type.Null()])),
  /** What the photo was read as once 'ready' (null before, and for uploads analysed before readings). */
  product: Type.Optional(Type.Union([ProductReading, Type.Null()])),
});
export type SubjectDto = Static<typeof SubjectDto>;

/** What the worker records for an upload: a found product, or why none was. */
export type SubjectFinding =
  | {
      found: true;
      needsFocus: boolean;
      confidence: number;
      candidates: SubjectCandidateDto[];
      product?: ProductReading | undefined;
    }
  | { found: false; error: string; tapMayFind?: boolean };

/** The subject as the API and the socket report it; null means the worker has not looked yet. */
export function subjectDto(
  imageId: string,
  finding: SubjectFinding | null,
  coach: CoachWarning[] = [],
  outline: OutlineDto | null = null,
): SubjectDto {
  if (!finding)
    return {
      imageId,
      status: 'pending',
      needsFocus: false,
      confidence: null,
      candidates: [],
      error: null,
      coach,
      outline: null,
    };
  if (!finding.found)
    return {
      imageId,
      status: 'failed',
      needsFocus: false,
      confidence: null,
      candidates: [],
      error: finding.error,
      tapMayFind: finding.tapMayFind ?? false,
      coach,
      outline: null,
    };
  return {
    imageId,
    status: 'ready',
    needsFocus: finding.needsFocus,
    confidence: finding.confidence,
    candidates: finding.candidates,
    error: null,
    coach,
    outline,
    product: finding.product ?? null,
  };
}

/** The stored outline as the API answers it, its preview behind `url`. */
export function outlineDto(outline: UploadOutline, url: string | null): OutlineDto {
  const { unsure, reasons, confirmed, focus } = outline;
  return {
    url,
    unsure,
    reasons,
    confirmed,
    focus: storedTaps(focus) ?? null,
    needsConfirmation: outlineNeedsConfirmation(outline),
  };
}

/** `GET /api/images/:id/subject` */
export const SubjectResponse = Type.Object({ data: SubjectDto });
export type SubjectResponse = Static<typeof SubjectResponse>;

/** The tap step's prompt, shown on the smart and manual screens when `needsFocus` is set. */
export const TAP_PRODUCT_MESSAGE = "We couldn't tell which is your product: tap it";

/** What a refused upload offers when a tap may still find the product (`tapMayFind`): the seller shows where it is. */
export const TAP_TO_FIND_MESSAGE = 'If your product is in this photo, tap it and Prodshot will look there.';
