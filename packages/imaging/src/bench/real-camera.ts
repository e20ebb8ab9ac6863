/** What a phone does to the whole photo after the product is in it: uneven light and sensor noise. */

/** A gentle luminance gradient across the photo (±amount/2 along `angle`), and an optional vignette. */
export function unevenLight(rgb: Float32Array, width: number, height: number, amount: number, angle: number, vignette: number): void {
  const cx = Math.cos(angle), cy = Math.sin(angle);
  for (let y = 0; y < height; y++) {
    const v = y / height - 0.5;
    for (let x = 0; x < width; x++) {
      const u = x / width - 0.5;
      const gain = (1 + amount * (u * cx + v * cy)) * (1 - vignette * (u * u + v * v) * 2);
      const o = (y * width + x) * 3;
      rgb[o] = rgb[o]! * gain;
      rgb[o + 1] = rgb[o + 1]! * gain;
      rgb[o + 2] = rgb[o + 2]! * gain;
    }
  }
}

/** Gaussian sensor noise: a luminance part shared by the channels and a smaller chroma part. */
export function sensorNoise(rgb: Float32Array, sigma: number, random: () => number): void {
  const gaussian = () => {
    const u = 1 - random(), v = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  for (let o = 0; o < rgb.length; o += 3) {
    const luma = gaussian() * sigma;
    rgb[o] = rgb[o]! + luma + gaussian() * sigma * 0.5;
    rgb[o + 1] = rgb[o + 1]! + luma + gaussian() * sigma * 0.5;
    rgb[o + 2] = rgb[o + 2]! + luma + gaussian() * sigma * 0.5;
  }
}
