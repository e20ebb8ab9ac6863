import Type, { type Static } from 'typebox';
import { CoachWarning } from './coach.js';
import { Focus } from './images.js';

/** A rectangle as fractions 0..1 of the upload's width and height, from the top-left. */
export const FractionBox = Type.Object({ x: Type.Number(), y: Type.Number(), width: Type.Number(), height: Type.Number() });
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
  /** Every coach warning of the upload: the pixel checks at once, the product checks once 'ready'. */
  coach: Type.Optional(Type.Array(CoachWarning)),
});
export type SubjectDto = Static<typeof SubjectDto>;

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
export const SubjectResponse = Type.Object({ data: SubjectDto });
export type SubjectResponse = Static<typeof SubjectResponse>;

/** The tap step's prompt, shown on the smart and manual screens when `needsFocus` is set. */
export const TAP_PRODUCT_MESSAGE = "We couldn't tell which is your product: tap it";
