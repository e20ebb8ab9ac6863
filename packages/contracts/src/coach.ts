import { Type, type Static } from 'typebox';
import { StringEnum } from './string-enum.js';
import type { ProductKind } from './products.js';

/**
 * The photo coach: what an upload's pixels say before any credit is spent. Pixel checks (blur,
 * resolution, exposure) come with the upload itself; the product checks (too small, cut off, busy
 * background) come with its subject, once the worker has found the product. Warnings never block;
 * `no_product` repeats why an upload was refused (see emptyPhotoWarning).
 */
export const COACH_CODES = [
  'blurry',
  'low_resolution',
  'too_dark',
  'too_bright',
  'product_too_small',
  'product_cut_off',
  'busy_background',
  'no_product',
] as const;
export type CoachCode = (typeof COACH_CODES)[number];

/**
 * Checks the API makes on the upload's pixels; the others wait for the product's mask. Low
 * resolution is both: the photo's size first, then the product's own once it is found.
 */
export const PIXEL_COACH_CODES: readonly CoachCode[] = ['blurry', 'low_resolution', 'too_dark', 'too_bright'];

/** The photo's edges, in the order a cut-off warning names them. */
export const FRAME_EDGES = ['top', 'bottom', 'left', 'right'] as const;
export type FrameEdge = (typeof FRAME_EDGES)[number];

export const CoachWarning = Type.Object({
  code: StringEnum(COACH_CODES),
  /** What is wrong, in a seller's words. */
  message: Type.String(),
  /** The one thing to do about it. */
  advice: Type.String(),
});
export type CoachWarning = Static<typeof CoachWarning>;

/** How the advice names the product: the kind when the analysis knows it. */
const PRODUCT_NOUNS: Record<ProductKind, string> = {
  footwear: 'shoe',
  beauty: 'product',
  accessories: 'accessory',
  electronics: 'device',
  furniture: 'piece',
  cosmetics: 'product',
  food: 'dish',
  kitchenware: 'piece',
  clothing: 'garment',
  models: 'outfit',
  unknown: 'product',
};

export function productNoun(kind: ProductKind): string {
  return PRODUCT_NOUNS[kind];
}

/** 'left edge', 'left and bottom edges', 'top, left and right edges'; none known: 'edge of the photo'. */
function edgesPhrase(edges: readonly FrameEdge[]): string {
  const named = FRAME_EDGES.filter((edge) => edges.includes(edge));
  if (named.length === 0) return 'edge of the photo';
  if (named.length === 1) return `${named[0]} edge`;
  return `${named.slice(0, -1).join(', ')} and ${named.at(-1)} edges`;
}

const TEXTS: Record<CoachCode, (noun: string, edges: readonly FrameEdge[]) => { message: string; advice: string }> = {
  blurry: (noun) => ({
    message: 'This photo looks blurry.',
    advice: `Hold the phone steady (rest it on something) and tap the ${noun} on screen to focus before you shoot.`,
  }),
  low_resolution: () => ({
    message: 'This photo is too small for your plan’s output size.',
    advice: 'Upload the original from your camera roll rather than a screenshot or a resized copy.',
  }),
  too_dark: (noun) => ({
    message: 'This photo is too dark.',
    advice: `Shoot by a window in daylight, or turn on a lamp facing the ${noun}.`,
  }),
  too_bright: (noun) => ({
    message: 'This photo is overexposed: bright parts have lost their detail.',
    advice: `Move the ${noun} out of direct sun or flash, or tap it on screen and lower the exposure.`,
  }),
  product_too_small: (noun) => ({
    message: `The ${noun} fills only a small part of the photo.`,
    advice: `Move closer so the ${noun} fills about half the frame.`,
  }),
  product_cut_off: (noun, edges) => ({
    message: `The ${noun} is cut off at the ${edgesPhrase(edges)}.`,
    advice: `Step back so the whole ${noun} is in the frame.`,
  }),
  busy_background: (noun) => ({
    message: 'The background is busy: other objects compete with your product.',
    advice: `Clear the other objects away, or put the ${noun} against a plain wall or sheet.`,
  }),
  no_product: (noun) => ({
    message: 'There is nothing to cut out in this photo.',
    advice: `Photograph the ${noun} itself, in the middle of the frame, and upload that photo.`,
  }),
};

/** `edges`: where a cut-off product leaves the frame, which its message names. */
export function coachWarning(
  code: CoachCode,
  kind: ProductKind = 'unknown',
  edges: readonly FrameEdge[] = [],
): CoachWarning {
  return { code, ...TEXTS[code](productNoun(kind), edges) };
}

/** The coach's word on a refused upload: the refusal's reason ('it looks like a bare surface, with no product on it'). */
export function emptyPhotoWarning(reason: string, kind: ProductKind = 'unknown'): CoachWarning {
  const { advice } = TEXTS.no_product(productNoun(kind), []);
  return { code: 'no_product', message: `There is nothing to cut out in this photo: ${reason}.`, advice };
}

/**
 * An upload's warnings once the product checks are in: the pixel checks kept, the product checks
 * replaced, and a pixel check the product checks made again (the size, judged on the product
 * itself) given once, as they judged it.
 */
export function withProductWarnings(
  current: readonly CoachWarning[],
  product: readonly CoachWarning[],
): CoachWarning[] {
  return [
    ...current.filter((w) => PIXEL_COACH_CODES.includes(w.code) && !product.some((p) => p.code === w.code)),
    ...product,
  ];
}
