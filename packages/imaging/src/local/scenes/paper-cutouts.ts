import type { Random } from './noise.js';
import { mix } from './paint.js';
import type { Rgb } from './scene-spec.js';

interface PaperShape {
  x: number;
  y: number;
  w: number;
  h: number;
  angle: number;
  colour: Rgb;
  dots: boolean;
  tape: boolean;
}

/** Cut paper pieces and tape kept to the frame's edges so the product's spot stays clean. */
export function paperShapes(random: Random): PaperShape[] {
  const palette: Rgb[] = [
    [236, 120, 110],
    [108, 176, 180],
    [246, 214, 120],
    [244, 240, 232],
    [150, 170, 220],
  ];
  const spots = [
    [0.12, 0.14],
    [0.86, 0.12],
    [0.1, 0.86],
    [0.88, 0.84],
    [0.5, 0.06],
    [0.08, 0.5],
    [0.93, 0.5],
  ];
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

export function paintPaper(shapes: PaperShape[], x: number, y: number, colour: number[]): void {
  for (const s of shapes) {
    const dx = x - s.x,
      dy = y - s.y;
    if (Math.abs(dx) > s.w + 0.02 || Math.abs(dy) > s.w + 0.02) continue;
    const cos = Math.cos(s.angle),
      sin = Math.sin(s.angle);
    const sx = (dx - 0.006) * cos + (dy - 0.008) * sin,
      sy = -(dx - 0.006) * sin + (dy - 0.008) * cos;
    if (Math.abs(sx) < s.w / 2 && Math.abs(sy) < s.h / 2) for (let c = 0; c < 3; c++) colour[c]! *= 0.86;
    const lx = dx * cos + dy * sin,
      ly = -dx * sin + dy * cos;
    if (Math.abs(lx) < s.w / 2 && Math.abs(ly) < s.h / 2) {
      const dot = s.dots && Math.hypot(((((lx * 60) % 1) + 1) % 1) - 0.5, ((((ly * 60) % 1) + 1) % 1) - 0.5) < 0.18;
      for (let c = 0; c < 3; c++) colour[c] = dot ? 255 : s.colour[c]!;
    }
    if (s.tape && Math.abs(lx) < s.w * 0.18 && Math.abs(ly + s.h / 2) < s.h * 0.16) {
      for (let c = 0; c < 3; c++) colour[c] = mix(colour[c]!, TAPE[c]!, 0.6);
    }
  }
}

const TAPE: Rgb = [240, 228, 196];
