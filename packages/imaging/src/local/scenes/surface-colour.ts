import { grain } from './noise.js';
import { mix, smoothstep, type Fields } from './paint.js';
import type { Rgb, SurfaceKind } from './scene-spec.js';

/** Colour of a surface material at world position (X along the frame, Z into depth). */
export function surfaceColour(
  kind: SurfaceKind,
  base: Rgb,
  accent: Rgb,
  X: number,
  Z: number,
  px: number,
  py: number,
  f: Fields,
  out: number[],
): void {
  const u = 0.5 + X * 0.06,
    v = Math.min(1, Z * 0.09);
  let t = 0;
  let shade = 1;
  switch (kind) {
    case 'wood': {
      const plankWidth = 0.42;
      const plank = Math.floor(Z / plankWidth);
      const within = Z / plankWidth - plank;
      const plankTone = grain(plank, 7, f.seed) * 0.5;
      const warp = f.warp.at(u + plank * 0.09, v);
      const rings =
        0.5 + 0.5 * Math.sin((Z * 38 + warp * 7 + plankTone * 20 + Math.sin(X * 1.3 + plank) * 0.6) * Math.PI);
      t =
        Math.pow(rings, 4) * 0.55 +
        (plankTone + 0.25) * 0.35 +
        f.detail.at(u * 2, v + plank * 0.05) * 0.3 +
        grain(px, py >> 1, f.seed) * 0.12;
      shade = within < 0.025 || within > 0.975 ? 0.62 : 1;
      break;
    }
    case 'marble': {
      const turbulence = f.warp.at(u, v) * 5 + f.detail.at(u * 1.7, v * 1.7) * 2.5;
      const vein = 1 - smoothstep(0, 0.1, Math.abs(Math.sin((X * 0.45 + Z * 0.3 + turbulence) * Math.PI)));
      const fine = 1 - smoothstep(0, 0.04, Math.abs(Math.sin((X * 1.3 - Z * 0.7 + turbulence * 1.6) * Math.PI)));
      const presence = smoothstep(-0.1, 0.35, f.detail.at(u * 0.7 + 0.2, v * 0.7));
      t = (vein * 0.65 + fine * 0.3) * presence + (f.detail.at(u * 3, v * 3) + 0.5) * 0.1;
      break;
    }
    case 'concrete': {
      const mottle = f.warp.at(u * 2, v * 2) * 0.6 + f.detail.at(u * 5, v * 5) * 0.4;
      const speck = grain(px, py, f.seed);
      t = 0.35 + mottle * 0.45 + speck * 0.25 + (speck < -0.485 ? 0.6 : 0);
      break;
    }
    case 'silk': {
      // Long folds in one direction, bent by low-frequency noise, with a sharp sheen on each crest.
      const bend = f.warp.at(u * 0.8, v * 0.8) * 3;
      const across = X * 0.85 + Z * 0.5;
      const lit = 0.5 + 0.5 * (Math.cos(across * 4.2 + bend) * 0.8 + Math.cos(across * 10 + bend * 1.5) * 0.2);
      shade = 0.74 + lit * 0.32;
      t = Math.pow(lit, 5) * 0.75;
      break;
    }
    case 'paper': {
      const fibre = grain(px, py >> 2, f.seed) * 0.6 + grain(px >> 2, py, f.seed + 1) * 0.4;
      t = 0.3 + f.warp.at(u * 3, v * 3) * 0.5 + fibre * 0.35;
      break;
    }
    case 'sand': {
      const ripple = Math.sin(Z * 26 + X * 1.5 + f.warp.at(u, v) * 6);
      t = 0.35 + ripple * 0.18 + grain(px, py, f.seed) * 0.5 + f.detail.at(u * 2, v * 2) * 0.4;
      shade = grain(px + 3, py, f.seed) > 0.497 ? 1.25 : 1;
      break;
    }
    case 'linen': {
      const weave = grain(px, py >> 1, f.seed) * 0.5 + grain(px >> 1, py, f.seed + 2) * 0.5;
      t = 0.25 + weave * 0.5 + f.warp.at(u, v) * 0.35;
      break;
    }
    case 'grass': {
      t = 0.4 + grain(px, py >> 3, f.seed) * 0.9 + f.warp.at(u * 2, v * 2) * 0.6;
      break;
    }
    case 'none':
      t = 0;
      break;
  }
  t = Math.min(1, Math.max(0, t));
  for (let c = 0; c < 3; c++) out[c] = mix(base[c]!, accent[c]!, t) * shade;
}
