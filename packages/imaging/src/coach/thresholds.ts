/**
 * The coach's thresholds, tuned on the corpus and the seller-photo bench set (docs/coach.md has the
 * measured figures and how each was chosen).
 */
export const COACH_THRESHOLDS = {
  /** Sharpness (mean Laplacian variance of the sharpest tenth of 32 px tiles, 640 px grey copy) below this is blurry. */
  blurSharpness: 120,
  /** The 98th-percentile grey level below this: even the brightest parts are dim. */
  darkHigh: 100,
  /** Share of clipped pixels (≥ 250) at or above this: highlights blown. */
  brightClipped: 0.12,
  /** The photo's long side below this share of the plan's shot side: the shot would be upscaled past what holds up. */
  resolutionShare: 0.5,
  /** The product's long side below this share of the photo's short side: too far away. */
  smallProduct: 0.2,
  /** A frame edge the product's mask runs along for at least this share of the product's extent there: cut off. */
  cutOffRun: 0.2,
} as const;
