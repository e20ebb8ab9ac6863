import { grain } from './noise.js';
import { mix, smoothstep, type Fields } from './paint.js';
import type { SceneSpec } from './scene-spec.js';

/** The background behind the product, drawn at low resolution so it reads as out of focus. */
export function renderWall(spec: SceneSpec, n: number, f: Fields): Float32Array {
  const out = new Float32Array(n * n * 3);
  const { kind, colours } = spec.wall;
  const c0 = colours[0]!,
    c1 = colours[1] ?? c0,
    c2 = colours[2] ?? c1;
  const blobs = Array.from({ length: 7 }, () => ({
    x: f.random(),
    y: f.random() * 0.8,
    r: 0.08 + f.random() * 0.25,
    c: colours[Math.floor(f.random() * colours.length)]!,
  }));
  const bokeh = Array.from({ length: 14 }, () => ({
    x: f.random(),
    y: f.random() * spec.horizon * 0.9,
    r: 0.015 + f.random() * 0.035,
    a: 0.25 + f.random() * 0.35,
  }));
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
          for (let c = 0; c < 3; c++)
            colour[c] = mix(c0[c]!, c1[c]!, smoothstep(0, 1, 1 - Math.abs(x - windowX))) * (1 + mottle);
          for (const b of blobs) {
            const w = Math.exp(-((x - b.x) ** 2 + ((y - b.y) * 1.4) ** 2) / (b.r * b.r)) * 0.45;
            for (let c = 0; c < 3; c++) colour[c] = mix(colour[c]!, (b.c === c0 ? c2 : b.c)[c]!, w);
          }
          break;
        }
        case 'sky': {
          const t = y / Math.max(0.01, seaLine);
          for (let c = 0; c < 3; c++)
            colour[c] =
              t < 0.6 ? mix(c0[c]!, c1[c]!, smoothstep(0, 0.6, t)) : mix(c1[c]!, c2[c]!, smoothstep(0.6, 1, t));
          if (y > seaLine) {
            const depth = (y - seaLine) / Math.max(0.01, spec.horizon - seaLine);
            const glint =
              Math.max(0, 1 - Math.abs(x - sunX) * 4) * (0.5 + 0.5 * Math.sin(depth * 60 + f.warp.at(x, y) * 8));
            for (let c = 0; c < 3; c++)
              colour[c] = mix(mix(c2[c]!, c0[c]!, 0.75), c0[c]! * 0.6, depth) + glint * 60 * (c === 2 ? 0.5 : 1);
          }
          break;
        }
        case 'tiles':
        case 'brick': {
          const rows = kind === 'tiles' ? 14 : 18;
          const row = Math.floor(y * rows);
          const col = x * rows * 0.5 + (row % 2) * 0.5;
          const gx = col - Math.floor(col),
            gy = y * rows - row;
          const joint = Math.min(gx, 1 - gx) < 0.04 || Math.min(gy, 1 - gy) < 0.07;
          const tone = grain(Math.floor(col), row, f.seed) * (kind === 'brick' ? 0.5 : 0.08);
          for (let c = 0; c < 3; c++)
            colour[c] = joint ? c2[c]! : mix(c0[c]!, c1[c]!, tone + 0.5 * (kind === 'brick' ? 1 : 0)) * (1 + mottle);
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
      out[o] = colour[0]!;
      out[o + 1] = colour[1]!;
      out[o + 2] = colour[2]!;
    }
  }
  return out;
}

export function sampleWall(wall: Float32Array, n: number, x: number, y: number, out: number[]): void {
  const fx = Math.min(n - 1.001, Math.max(0, x * n - 0.5)),
    fy = Math.min(n - 1.001, Math.max(0, y * n - 0.5));
  const i = fx | 0,
    j = fy | 0,
    ax = fx - i,
    ay = fy - j;
  for (let c = 0; c < 3; c++) {
    const a = wall[(j * n + i) * 3 + c]!,
      b = wall[(j * n + i + 1) * 3 + c]!;
    const d = wall[((j + 1) * n + i) * 3 + c]!,
      e = wall[((j + 1) * n + i + 1) * 3 + c]!;
    out[c] = mix(mix(a, b, ax), mix(d, e, ax), ay);
  }
}
