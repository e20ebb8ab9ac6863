/**
 * The photo coach (`@prodshot/imaging/coach`): measures and checks without the engine, so the API
 * can coach an upload without loading onnxruntime.
 */
export { measurePhoto, readProductMask, COACH_SIDE } from './read-photo.js';
export type { PhotoStats } from './read-photo.js';
export {
  pixelWarnings,
  productWarnings,
  edgeCut,
  edgeRuns,
  cutEdges,
  productScale,
  productSide,
  minProductSide,
} from './checks.js';
export type { ProductMask, ProductShape } from './checks.js';
export { COACH_THRESHOLDS } from './thresholds.js';
export { guessKind } from '../local/analyse.js';
export { outlineDoubts, outlineOf, largeParts, OUTLINE_THRESHOLDS } from './outline.js';
