import { NoiseField, grain, seededRandom } from './noise.js';
import type { Random } from './noise.js';
import type { Rgb, SceneSpec, SurfaceKind } from './scene-spec.js';

export interface RenderedScene {
  /** RGB, 8 bits, size × size (clamped, so lighting can overshoot safely). */
  rgb: Uint8ClampedArray;
  size: number;
  /** Row where surface meets wall (eye-level), in pixels; 0 for flat-lay and seamless views. */
  horizonY: number;
  /** Row the product's base should rest on, in pixels. */
  floorY: number;
  /** Typical colour of the surface near the product, used to tint shadows. */
  floorColour: Rgb;
}

/** Where products rest, as a share of the frame height, per view. */
export function floorLine(spec: SceneSpec): number {
  if (spec.view === 'eye-level') return spec.horizon + (1 - spec.horizon) * 0.55;
  return spec.view === 'seamless' ? 0.8 : 0.78;
}

const smoothstep = (a: number, b: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};
const mix = (a: number, b: number, t: number) => a + (b - a) * t;

interface Fields {
  warp: NoiseField;
  detail: NoiseField;
  random: Random;
  seed: number;
}

/** Colour of a surface material at world position (X along the frame, Z into depth). */
function surfaceColour(kind: SurfaceKind, base: Rgb, accent: Rgb, X: number, Z: number, px: number, py: number, f: Fields, out: number[]): void {
  const u = 0.5 + X * 0.06, v = Math.min(1, Z * 0.09);
  let t = 0;
  let shade = 1;
  switch (kind) {
    case 'wood': {
      const plankWidth = 0.42;
      const plank = Math.floor(Z / plankWidth);
      const within = Z / plankWidth - plank;
      const plankTone = grain(plank, 7, f.seed) * 0.5;
      const warp = f.warp.at(u + plank * 0.09, v);
      const rings = 0.5 + 0.5 * Math.sin((Z * 38 + warp * 7 + plankTone * 20 + Math.sin(X * 1.3 + plank) * 0.6) * Math.PI);
      t = Math.pow(rings, 4) * 0.55 + (plankTone + 0.25) * 0.35 + f.detail.at(u * 2, v + plank * 0.05) * 0.3 + grain(px, py >> 1, f.seed) * 0.12;
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

/** The background behind the product, drawn at low resolution so it reads as out of focus. */
function renderWall(spec: SceneSpec, n: number, f: Fields): Float32Array {
  const out = new Float32Array(n * n * 3);
  const { kind, colours } = spec.wall;
  const c0 = colours[0]!, c1 = colours[1] ?? c0, c2 = colours[2] ?? c1;
  const blobs = Array.from({ length: 7 }, () => ({ x: f.random(), y: f.random() * 0.8, r: 0.08 + f.random() * 0.25, c: colours[Math.floor(f.random() * colours.length)]! }));
  const bokeh = Array.from({ length: 14 }, () => ({ x: f.random(), y: f.random() * spec.horizon * 0.9, r: 0.015 + f.random() * 0.035, a: 0.25 + f.random() * 0.35 }));
  const sunX = 0.5 + spec.light.azimuth * 0.22;
  const seaLine = spec.horizon * 0.7;
  const windowX = spec.light.azimuth < 0 ? 0.12 : 0.88;
  const colour = [0, 0, 0];
  for (let j = 0; j < n; j++) {
    const y = j / n;
    for (let i = 0; i < n; i++) {
      const x = i / n;
      const mottle = f.detail.at(x, y) * 0.05;
      switch (kind) {
        case 'sweep':
        case 'plain': {
          const t = smoothstep(0, spec.view === 'seamless' ? spec.horizon + 0.1 : 1, y);
          for (let c = 0; c < 3; c++) colour[c] = mix(c0[c]!, c1[c]!, t) * (1 + mottle * 0.6);
          break;
        }
        case 'room': {
          for (let c = 0; c < 3; c++) colour[c] = mix(c0[c]!, c1[c]!, smoothstep(0, 1, 1 - Math.abs(x - windowX))) * (1 + mottle);
          for (const b of blobs) {
            const w = Math.exp(-((x - b.x) ** 2 + ((y - b.y) * 1.4) ** 2) / (b.r * b.r)) * 0.45;
            for (let c = 0; c < 3; c++) colour[c] = mix(colour[c]!, (b.c === c0 ? c2 : b.c)[c]!, w);
          }
          break;
        }
        case 'sky': {
          const t = y / Math.max(0.01, seaLine);
          for (let c = 0; c < 3; c++) colour[c] = t < 0.6 ? mix(c0[c]!, c1[c]!, smoothstep(0, 0.6, t)) : mix(c1[c]!, c2[c]!, smoothstep(0.6, 1, t));
          if (y > seaLine) {
            const depth = (y - seaLine) / Math.max(0.01, spec.horizon - seaLine);
            const glint = Math.max(0, 1 - Math.abs(x - sunX) * 4) * (0.5 + 0.5 * Math.sin(depth * 60 + f.warp.at(x, y) * 8));
            for (let c = 0; c < 3; c++) colour[c] = mix(mix(c2[c]!, c0[c]!, 0.75), c0[c]! * 0.6, depth) + glint * 60 * (c === 2 ? 0.5 : 1);
          }
          break;
        }
        case 'tiles':
        case 'brick': {
          const rows = kind === 'tiles' ? 14 : 18;
          const row = Math.floor(y * rows);
          const col = x * rows * 0.5 + (row % 2) * 0.5;
          const gx = col - Math.floor(col), gy = y * rows - row;
          const joint = Math.min(gx, 1 - gx) < 0.04 || Math.min(gy, 1 - gy) < 0.07;
          const tone = grain(Math.floor(col), row, f.seed) * (kind === 'brick' ? 0.5 : 0.08);
          for (let c = 0; c < 3; c++) colour[c] = joint ? c2[c]! : mix(c0[c]!, c1[c]!, tone + 0.5 * (kind === 'brick' ? 1 : 0)) * (1 + mottle);
          break;
        }
        case 'blobs': {
          let weight = 0;
          const sum = [0, 0, 0];
          for (const b of blobs) {
            const w = 1 / (((x - b.x) ** 2 + (y - b.y) ** 2) ** 1.5 + 0.002);
            weight += w;
            for (let c = 0; c < 3; c++) sum[c]! += b.c[c]! * w;
          }
          for (let c = 0; c < 3; c++) colour[c] = sum[c]! / weight;
          break;
        }
      }
      if (spec.props.includes('sun')) {
        const d = Math.sqrt((x - sunX) ** 2 + ((y - seaLine * 0.93) * 1.1) ** 2);
        const glow = d < 0.05 ? 1 : Math.exp(-(d - 0.05) * 9) * 0.7;
        if (y < seaLine) for (let c = 0; c < 3; c++) colour[c] = mix(colour[c]!, [255, 236, 190][c]!, glow);
      }
      if (spec.props.includes('window-light')) {
        const beam = smoothstep(0.35, 0, Math.abs(x - windowX - (y - 0.3) * 0.3)) * smoothstep(0, 0.3, y) * 0.35;
        for (let c = 0; c < 3; c++) colour[c] = mix(colour[c]!, 255, beam);
      }
      if (spec.props.includes('bokeh') || spec.props.includes('pendant-lights')) {
        const warmGlow = spec.props.includes('pendant-lights');
        for (const b of warmGlow ? bokeh.slice(0, 4) : bokeh) {
          const cy = warmGlow ? 0.12 + b.y * 0.15 : b.y;
          const d = Math.sqrt((x - b.x) ** 2 + (y - cy) ** 2) / (warmGlow ? b.r * 1.6 : b.r);
          if (d < 1.2) {
            const a = b.a * smoothstep(1.2, 0.8, d);
            const glow = warmGlow ? [255, 214, 150] : [255, 244, 222];
            for (let c = 0; c < 3; c++) colour[c] = mix(colour[c]!, glow[c]!, a);
          }
        }
      }
      const o = (j * n + i) * 3;
      out[o] = colour[0]!; out[o + 1] = colour[1]!; out[o + 2] = colour[2]!;
    }
  }
  return out;
}

function sampleWall(wall: Float32Array, n: number, x: number, y: number, out: number[]): void {
  const fx = Math.min(n - 1.001, Math.max(0, x * n - 0.5)), fy = Math.min(n - 1.001, Math.max(0, y * n - 0.5));
  const i = fx | 0, j = fy | 0, ax = fx - i, ay = fy - j;
  for (let c = 0; c < 3; c++) {
    const a = wall[(j * n + i) * 3 + c]!, b = wall[(j * n + i + 1) * 3 + c]!;
    const d = wall[((j + 1) * n + i) * 3 + c]!, e = wall[((j + 1) * n + i + 1) * 3 + c]!;
    out[c] = mix(mix(a, b, ax), mix(d, e, ax), ay);
  }
}

interface PaperShape {
  x: number; y: number; w: number; h: number; angle: number; colour: Rgb; dots: boolean; tape: boolean;
}

/** Cut paper pieces and tape kept to the frame's edges so the product's spot stays clean. */
function paperShapes(random: Random): PaperShape[] {
  const palette: Rgb[] = [[236, 120, 110], [108, 176, 180], [246, 214, 120], [244, 240, 232], [150, 170, 220]];
  const spots = [[0.12, 0.14], [0.86, 0.12], [0.1, 0.86], [0.88, 0.84], [0.5, 0.06], [0.08, 0.5], [0.93, 0.5]];
  return spots.map(([x, y], k) => ({
    x: x! + (random() - 0.5) * 0.06,
    y: y! + (random() - 0.5) * 0.06,
    w: 0.1 + random() * 0.12,
    h: 0.08 + random() * 0.1,
    angle: (random() - 0.5) * 0.8,
    colour: palette[k % palette.length]!,
    dots: k % 3 === 0,
    tape: k % 2 === 1,
  }));
}

function paintPaper(shapes: PaperShape[], x: number, y: number, colour: number[]): void {
  for (const s of shapes) {
    const dx = x - s.x, dy = y - s.y;
    if (Math.abs(dx) > s.w + 0.02 || Math.abs(dy) > s.w + 0.02) continue;
    const cos = Math.cos(s.angle), sin = Math.sin(s.angle);
    const sx = (dx - 0.006) * cos + (dy - 0.008) * sin, sy = -(dx - 0.006) * sin + (dy - 0.008) * cos;
    if (Math.abs(sx) < s.w / 2 && Math.abs(sy) < s.h / 2) for (let c = 0; c < 3; c++) colour[c]! *= 0.86;
    const lx = dx * cos + dy * sin, ly = -dx * sin + dy * cos;
    if (Math.abs(lx) < s.w / 2 && Math.abs(ly) < s.h / 2) {
      const dot = s.dots && Math.hypot(((lx * 60) % 1 + 1) % 1 - 0.5, ((ly * 60) % 1 + 1) % 1 - 0.5) < 0.18;
      for (let c = 0; c < 3; c++) colour[c] = dot ? 255 : s.colour[c]!;
    }
    if (s.tape && Math.abs(lx) < s.w * 0.18 && Math.abs(ly + s.h / 2) < s.h * 0.16) {
      for (let c = 0; c < 3; c++) colour[c] = mix(colour[c]!, TAPE[c]!, 0.6);
    }
  }
}

const TAPE: Rgb = [240, 228, 196];

/**
 * Renders a scene procedurally; the same spec, size and seed always give the same pixels.
 * Callers render at half the shot size and enlarge: the scene is meant to look shot with a
 * shallow depth of field, and it quarters the per-pixel work.
 */
export function renderScene(spec: SceneSpec, size: number, seed: number): RenderedScene {
  const random = seededRandom(seed, spec.id);
  const fields: Fields = { warp: new NoiseField(random, { frequency: 2.5 }), detail: new NoiseField(random, { frequency: 6, octaves: 3 }), random, seed };
  const wallN = Math.max(128, Math.round(size / 3));
  const wall = renderWall(spec, wallN, fields);
  const shapes = spec.props.includes('paper-cutouts') ? paperShapes(random) : [];
  const horizonY = spec.view === 'eye-level' ? spec.horizon * size : 0;
  const floorY = floorLine(spec) * size;
  const rgb = new Uint8ClampedArray(size * size * 3);
  const colour = [0, 0, 0], surface = [0, 0, 0];
  const { light } = spec;
  const spotX = 0.5 - light.azimuth * 0.08, spotY = floorLine(spec) - 0.22;
  const aa = 1.5 / size;
  const { surface: s } = spec;
  for (let py = 0; py < size; py++) {
    const y = py / size;
    for (let px = 0; px < size; px++) {
      const x = px / size;
      if (spec.view === 'flat-lay') {
        surfaceColour(s.kind, s.base, s.accent, (x - 0.5) * 3, y * 3, px, py, fields, colour);
        paintPaper(shapes, x, y, colour);
      } else {
        sampleWall(wall, wallN, x, y, colour);
        if (spec.view === 'seamless' && s.kind === 'none') {
          const t = smoothstep(spec.horizon - 0.12, spec.horizon + 0.18, y);
          for (let c = 0; c < 3; c++) colour[c] = mix(colour[c]!, s.base[c]!, t);
        } else if (spec.view === 'eye-level' && y > spec.horizon - aa) {
          const d = Math.max(0.0005, (y - spec.horizon) / (1 - spec.horizon));
          const z = 1 / (d * 0.92 + 0.08);
          surfaceColour(s.kind, s.base, s.accent, (x - 0.5) * z * 1.6, z, px, py, fields, surface);
          // Far surface melts into haze and the wall; the 1.5 px ramp anti-aliases the table edge.
          const haze = Math.pow(1 - d, 10) * 0.45;
          const edge = smoothstep(spec.horizon - aa, spec.horizon + aa, y);
          for (let c = 0; c < 3; c++) colour[c] = mix(colour[c]!, mix(surface[c]!, colour[c]!, haze) * (0.9 + 0.1 * smoothstep(0, 0.04, d)), edge);
        }
      }
      const r = Math.sqrt((x - spotX) ** 2 + ((y - spotY) * 1.3) ** 2);
      let lum = light.key * (1 + light.spot * 0.16 * Math.exp(-(r * r) / 0.09)) * (1 + light.azimuth * (0.5 - x) * -0.1);
      lum *= 1 - spec.vignette * smoothstep(0.3, 0.95, Math.sqrt((x - 0.5) ** 2 + (y - 0.5) ** 2) * 1.2);
      const dither = grain(px, py, seed + 11) * 2.2;
      const o = (py * size + px) * 3;
      rgb[o] = colour[0]! * lum * (1 + light.warmth * 0.05) + dither;
      rgb[o + 1] = colour[1]! * lum * (1 + light.warmth * 0.01) + dither;
      rgb[o + 2] = colour[2]! * lum * (1 - light.warmth * 0.07) + dither;
    }
  }
  return { rgb, size, horizonY, floorY, floorColour: floorColourOf(rgb, size, floorY) };
}

function floorColourOf(rgb: Uint8ClampedArray, size: number, floorY: number): Rgb {
  const y = Math.min(size - 1, Math.round(floorY));
  const sum = [0, 0, 0];
  for (let x = Math.round(size * 0.3); x < Math.round(size * 0.7); x++) for (let c = 0; c < 3; c++) sum[c]! += rgb[(y * size + x) * 3 + c]!;
  const n = Math.round(size * 0.7) - Math.round(size * 0.3);
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}
