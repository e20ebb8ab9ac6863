import Alea from 'alea';
import { createNoise2D } from 'simplex-noise';

export type Random = () => number;

/** A seeded generator; the same seed and salt always give the same sequence. */
export function seededRandom(seed: number, salt: string): Random {
  return Alea(seed, salt);
}

/**
 * Fractal simplex noise sampled once on a small periodic-free grid and read back with bilinear
 * interpolation: a 1024² scene then costs ~65k noise evaluations per field instead of millions.
 */
export class NoiseField {
  private readonly grid: Float32Array;
  private readonly n: number;

  constructor(random: Random, options: { resolution?: number; octaves?: number; frequency?: number } = {}) {
    const n = options.resolution ?? 192;
    const octaves = options.octaves ?? 4;
    const frequency = options.frequency ?? 3;
    const noise = createNoise2D(random);
    this.n = n;
    this.grid = new Float32Array(n * n);
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        let sum = 0,
          amplitude = 0.5,
          f = frequency;
        for (let o = 0; o < octaves; o++) {
          sum += amplitude * noise((i / n) * f, (j / n) * f);
          amplitude *= 0.5;
          f *= 2;
        }
        this.grid[j * n + i] = sum;
      }
    }
  }

  /** Noise in about −1..1 at (u, v) in 0..1 (clamped). */
  at(u: number, v: number): number {
    const n = this.n;
    const x = Math.min(Math.max(u, 0), 1) * (n - 1);
    const y = Math.min(Math.max(v, 0), 1) * (n - 1);
    const x0 = x | 0,
      y0 = y | 0;
    const x1 = x0 < n - 1 ? x0 + 1 : x0,
      y1 = y0 < n - 1 ? y0 + 1 : y0;
    const fx = x - x0,
      fy = y - y0;
    const g = this.grid;
    const top = g[y0 * n + x0]! + (g[y0 * n + x1]! - g[y0 * n + x0]!) * fx;
    const bottom = g[y1 * n + x0]! + (g[y1 * n + x1]! - g[y1 * n + x0]!) * fx;
    return top + (bottom - top) * fy;
  }
}

/** Per-pixel hash noise in −0.5..0.5: film grain and fibres at no interpolation cost. */
export function grain(x: number, y: number, seed: number): number {
  let h = (x * 374761393 + y * 668265263 + seed * 1442695041) | 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) & 0xffff) / 0xffff - 0.5;
}
