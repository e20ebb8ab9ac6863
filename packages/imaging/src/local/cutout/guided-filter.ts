import { boxSum } from './mask-ops.js';

/**
 * Colour guided filter (He, Sun and Tang, "Guided Image Filtering", 2013): a local linear model
 * q = aᵀI + b of the mask p in every (2r+1)² window of the RGB guide I. Mask edges snap to the
 * photo's own colour edges, at the photo's resolution, which an upscaled blur of a low-resolution
 * mask cannot do: a strap or a lace a few pixels wide survives, a soft blob shrinks to its object.
 *
 * `guide` is three planes (R, G, B in 0..1), `mask` one plane in 0..1, all width × height.
 */
export function guidedFilter(
  guide: [Float32Array, Float32Array, Float32Array],
  mask: Float32Array,
  width: number,
  height: number,
  radius: number,
  eps: number,
): Float32Array {
  const n = width * height;
  // boxSum repeats edge pixels to fill windows that cross the border, so every window holds area values.
  const area = (2 * radius + 1) ** 2;
  const mean = (values: Float32Array) => {
    const sums = boxSum(values, width, height, radius);
    for (let p = 0; p < n; p++) sums[p] = sums[p]! / area;
    return sums;
  };
  const product = (a: Float32Array, b: Float32Array) => {
    const out = new Float32Array(n);
    for (let p = 0; p < n; p++) out[p] = a[p]! * b[p]!;
    return out;
  };
  const [r, g, b] = guide;
  const meanR = mean(r),
    meanG = mean(g),
    meanB = mean(b),
    meanP = mean(mask);
  const covRP = mean(product(r, mask)),
    covGP = mean(product(g, mask)),
    covBP = mean(product(b, mask));
  const varRR = mean(product(r, r)),
    varRG = mean(product(r, g)),
    varRB = mean(product(r, b));
  const varGG = mean(product(g, g)),
    varGB = mean(product(g, b)),
    varBB = mean(product(b, b));
  const aR = new Float32Array(n),
    aG = new Float32Array(n),
    aB = new Float32Array(n),
    offset = new Float32Array(n);
  for (let p = 0; p < n; p++) {
    const mr = meanR[p]!,
      mg = meanG[p]!,
      mb = meanB[p]!,
      mp = meanP[p]!;
    const cr = covRP[p]! - mr * mp,
      cg = covGP[p]! - mg * mp,
      cb = covBP[p]! - mb * mp;
    // Σ + εU, inverted by its adjugate.
    const s00 = varRR[p]! - mr * mr + eps,
      s01 = varRG[p]! - mr * mg,
      s02 = varRB[p]! - mr * mb;
    const s11 = varGG[p]! - mg * mg + eps,
      s12 = varGB[p]! - mg * mb,
      s22 = varBB[p]! - mb * mb + eps;
    const i00 = s11 * s22 - s12 * s12,
      i01 = s02 * s12 - s01 * s22,
      i02 = s01 * s12 - s02 * s11;
    const i11 = s00 * s22 - s02 * s02,
      i12 = s01 * s02 - s00 * s12,
      i22 = s00 * s11 - s01 * s01;
    const det = s00 * i00 + s01 * i01 + s02 * i02;
    const ar = (cr * i00 + cg * i01 + cb * i02) / det;
    const ag = (cr * i01 + cg * i11 + cb * i12) / det;
    const ab = (cr * i02 + cg * i12 + cb * i22) / det;
    aR[p] = ar;
    aG[p] = ag;
    aB[p] = ab;
    offset[p] = mp - ar * mr - ag * mg - ab * mb;
  }
  const meanAR = mean(aR),
    meanAG = mean(aG),
    meanAB = mean(aB),
    meanOffset = mean(offset);
  const out = new Float32Array(n);
  for (let p = 0; p < n; p++) out[p] = meanAR[p]! * r[p]! + meanAG[p]! * g[p]! + meanAB[p]! * b[p]! + meanOffset[p]!;
  return out;
}
