/** Fully transparent pixels of an RGBA cutout that still carry a colour: the photo behind the product, kept where nobody sees it. */
export function colouredTransparentPixels(rgba: Uint8Array): number {
  let count = 0;
  for (let p = 0; p < rgba.length; p += 4) if (!rgba[p + 3] && (rgba[p] || rgba[p + 1] || rgba[p + 2])) count++;
  return count;
}
