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
  /**
   * The product's long side in the photo below this share of the plan's shot side: a catalog shot
   * fills up to 0.8 of its side with the product, so under 0.8 / 2.75 of it the product is upscaled
   * more than 2.75×, and that shows (under 1,192 px for 4096 px shots, 596 for 2048, 298 for 1024).
   * Before the product is found, the photo's own long side stands in: the product is no larger.
   */
  productSideShare: 0.8 / 2.75,
  /** The product's long side below this share of the photo's short side: too far away. */
  smallProduct: 0.2,
  /**
   * A frame edge the product's mask runs along for at least this share of the product's extent there: cut off.
   * On the bench's coach set (2026-11-27) every cut-off photo the engine found ran 0.4 or more along
   * its edge, and a clean photo up to 0.29 (a mug whose outline took in the rowing boats beside it).
   */
  cutOffRun: 0.35,
} as const;
