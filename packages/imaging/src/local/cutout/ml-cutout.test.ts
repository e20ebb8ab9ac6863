import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { LocalImageModel } from '../local-model.js';
import { colouredTransparentPixels } from './cutout.test-support.js';
import type { SalientObjectModel } from '../saliency/salient-model.js';
import { loadSalientModel } from '../saliency/onnx-salient-model.js';
import { redSaliencyGraph } from '../saliency/stand-in-graph.test-support.js';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const WIDTH = 512,
  HEIGHT = 384;
let salient: SalientObjectModel;

beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'prodshot-cutout-'));
  const file = path.join(dir, 'red.onnx');
  await writeFile(file, redSaliencyGraph({ size: 256 }));
  salient = await loadSalientModel({ path: file, cacheDir: dir });
});

/** Seeded noise, so every run sees the same "grass". */
function grass(seed = 7): Buffer {
  const rgb = Buffer.alloc(WIDTH * HEIGHT * 3);
  let state = seed;
  const random = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  for (let p = 0; p < WIDTH * HEIGHT; p++) {
    const blade = Math.sin((p % WIDTH) * 0.9 + Math.floor(p / WIDTH) * 0.13) * 25 + (random() - 0.5) * 40;
    rgb[p * 3] = 60 + blade * 0.4;
    rgb[p * 3 + 1] = 140 + blade;
    rgb[p * 3 + 2] = 50 + blade * 0.3;
  }
  return rgb;
}

/** Red products drawn as SVG: boxes with a thin strap, on grass, as a JPEG a phone would send. */
async function photo(
  products: { x: number; y: number; w: number; h: number; fill?: string }[],
): Promise<{ jpeg: Buffer; truth: Buffer; pixels: Buffer }> {
  const shapes = products
    .map(
      ({ x, y, w, h, fill = '#c8281e' }) =>
        `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${fill}"/><path d="M${x + w * 0.3} ${y} Q${x + w / 2} ${y - h * 0.5} ${x + w * 0.7} ${y}" stroke="#b4201a" stroke-width="6" fill="none"/>`,
    )
    .join('');
  return svgPhoto(shapes);
}

/** SVG shapes on grass as a phone's JPEG; the truth is the shapes' alpha. */
async function svgPhoto(shapes: string): Promise<{ jpeg: Buffer; truth: Buffer; pixels: Buffer }> {
  const layer = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">${shapes}</svg>`,
  );
  const truth = await sharp(layer).extractChannel(3).raw().toBuffer();
  const composed = sharp(grass(), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).composite([{ input: layer }]);
  const jpeg = await composed.jpeg({ quality: 92 }).toBuffer();
  const pixels = await sharp(jpeg).removeAlpha().raw().toBuffer();
  return { jpeg, truth, pixels };
}

/**
 * A red rug of 16 px patches, some redder than others, from `top` (share of the height) down, on
 * grass, with SVG shapes over it: the stand-in model marks the rug across the frame, half sure of it.
 */
async function rugPhoto(top: number, shapes = ''): Promise<Buffer> {
  const rgb = grass();
  let state = 11;
  const random = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const patches = Array.from({ length: (WIDTH / 16) * (HEIGHT / 16) }, () => 15 + 40 * random());
  for (let p = Math.round(top * HEIGHT) * WIDTH; p < WIDTH * HEIGHT; p++) {
    const x = p % WIDTH,
      y = Math.floor(p / WIDTH),
      redness = patches[Math.floor(y / 16) * (WIDTH / 16) + Math.floor(x / 16)]!;
    const grain = (random() - 0.5) * 10;
    rgb[p * 3] = 150 + grain;
    rgb[p * 3 + 1] = 150 - redness + grain;
    rgb[p * 3 + 2] = 90 + grain;
  }
  const layer = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">${shapes}</svg>`,
  );
  return sharp(rgb, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .composite([{ input: layer }])
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** A tap at a pixel of the test photo. */
function tapAt(x: number, y: number, keep: boolean) {
  return { x: x / WIDTH, y: y / HEIGHT, keep };
}

/** The truth of some shapes alone (not composited), ≥ 128 where they are. */
async function truthOf(shapes: string): Promise<Buffer> {
  return sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">${shapes}</svg>`),
  )
    .extractChannel(3)
    .raw()
    .toBuffer();
}

async function alphaOf(png: Buffer): Promise<Buffer> {
  return sharp(png).ensureAlpha().extractChannel(3).raw().toBuffer();
}

function iou(truth: Buffer, found: Buffer): number {
  let both = 0,
    either = 0;
  for (let p = 0; p < truth.length; p++) {
    const t = truth[p]! >= 128,
      f = found[p]! >= 128;
    if (t && f) both++;
    if (t || f) either++;
  }
  return either ? both / either : 1;
}

describe('the ML cutout', () => {
  it('cuts a product out of a textured photo, its thin strap included, with its pixels untouched', async () => {
    const { jpeg, truth, pixels } = await photo([{ x: 150, y: 150, w: 200, h: 170 }]);
    const cutout = await new LocalImageModel({ salient }).removeBackground(jpeg);
    const rgba = await sharp(cutout).raw().toBuffer();
    expect(iou(truth, await alphaOf(cutout))).toBeGreaterThan(0.95);
    // The strap, 6 px wide, crosses this row.
    const strapRow = 110;
    let strap = 0;
    for (let x = 150; x < 350; x++) if (rgba[(strapRow * WIDTH + x) * 4 + 3]! >= 128) strap++;
    expect(strap).toBeGreaterThanOrEqual(8);
    // Inside the product every opaque pixel is the photo's own.
    for (let y = 200; y < 300; y += 7) {
      for (let x = 180; x < 320; x += 7) {
        const p = y * WIDTH + x;
        expect(rgba[p * 4 + 3]).toBe(255);
        expect([rgba[p * 4], rgba[p * 4 + 1], rgba[p * 4 + 2]]).toEqual([
          pixels[p * 3],
          pixels[p * 3 + 1],
          pixels[p * 3 + 2],
        ]);
      }
    }
    // Outside it nothing of the seller's photo is kept: a transparent pixel is clear black.
    expect(colouredTransparentPixels(rgba)).toBe(0);
  });

  it('asks for a tap when two products compete, and keeps the one tapped', async () => {
    const left = { x: 40, y: 140, w: 150, h: 150 },
      right = { x: 320, y: 160, w: 140, h: 140 };
    const { jpeg } = await photo([left, right]);
    const model = new LocalImageModel({ salient });
    const analysis = await model.analyse(jpeg);
    expect(analysis.subject?.needsFocus).toBe(true);
    expect(analysis.subject?.candidates).toHaveLength(2);
    const tapped = await alphaOf(
      await model.removeBackground(jpeg, { taps: [{ x: 390 / WIDTH, y: 230 / HEIGHT, keep: true }] }),
    );
    expect(tapped[230 * WIDTH + 390]).toBe(255);
    expect(tapped[215 * WIDTH + 115]).toBe(0);
  });

  it('takes two close objects alike in size and colour as one product (a pair), but not two of unlike colours', async () => {
    const model = new LocalImageModel({ salient });
    const left = { x: 120, y: 160, w: 120, h: 130 },
      right = { x: 260, y: 160, w: 120, h: 130 };
    const pair = await model.analyse((await photo([left, right])).jpeg);
    expect(pair.subject).toMatchObject({ needsFocus: false, candidates: [expect.objectContaining({ score: 1 })] });
    // Magenta is as salient to the stand-in model as red, but shares none of its colours: a pebble beside a shoe.
    const unlike = await model.analyse((await photo([left, { ...right, fill: '#d0208c' }])).jpeg);
    expect(unlike.subject?.candidates).toHaveLength(2);
    expect(unlike.subject?.needsFocus).toBe(true);
  });

  it('does not ask when the photo holds one product', async () => {
    const { jpeg } = await photo([{ x: 150, y: 150, w: 200, h: 170 }]);
    const analysis = await new LocalImageModel({ salient }).analyse(jpeg);
    expect(analysis.subject).toMatchObject({ needsFocus: false, candidates: [expect.objectContaining({ score: 1 })] });
    expect(analysis.subject!.confidence).toBeGreaterThan(0.8);
  });

  it('refuses a photo with no product rather than render an empty scene', async () => {
    const { jpeg } = await photo([]);
    const model = new LocalImageModel({ salient });
    await expect(model.removeBackground(jpeg)).rejects.toMatchObject({ code: 'empty_image' });
    await expect(model.generate({ image: jpeg, template: 'studio' })).rejects.toMatchObject({ code: 'empty_image' });
    expect((await model.analyse(jpeg)).subject).toBeNull();
  });

  it('refuses an empty textured photo, saying it is a bare surface, though the model half sees the texture', async () => {
    const jpeg = await rugPhoto(0);
    const model = new LocalImageModel({ salient });
    const bareSurface = {
      code: 'empty_image',
      message: expect.stringContaining('it looks like a bare surface, with no product on it'),
    };
    await expect(model.removeBackground(jpeg)).rejects.toMatchObject(bareSurface);
    await expect(model.findProduct(jpeg)).rejects.toMatchObject(bareSurface);
  });

  it('does not refuse a product photo whose surface spans the frame when the product stands apart from it', async () => {
    // The rug fills the lower 60% of the frame, the product (surely red) stands on the grass above it.
    const jpeg = await rugPhoto(0.4, `<rect x="200" y="30" width="110" height="90" fill="#c8281e"/>`);
    const analysis = await new LocalImageModel({ salient }).analyse(jpeg);
    expect(analysis.subject).not.toBeNull();
  });

  it('looks again, closer, when a small product is fused with a half-sure stone behind it, and cuts the stone away', async () => {
    // As ISNet does with a shoe on pebbles: across the whole photo the stone behind the product is
    // half-salient and fused to it; in a window around the product, only the product is.
    let looks = 0;
    const mean: [number, number, number] = [0, 0, 0],
      std: [number, number, number] = [1, 1, 1];
    const shoeOnPebbles: SalientObjectModel = {
      description: 'shoe on pebbles',
      inputWidth: 256,
      inputHeight: 256,
      mean,
      std,
      async predict(input) {
        looks++;
        const plane = 256 * 256,
          out = new Float32Array(plane);
        const colour = (p: number) => [input[p]!, input[plane + p]!, input[2 * plane + p]!] as const;
        let product = 0;
        for (let p = 0; p < plane; p++) if (isRed(colour(p))) product++;
        const wholePhoto = product < 0.12 * plane;
        for (let p = 0; p < plane; p++) {
          const [r, g, b] = colour(p);
          if (isRed([r, g, b])) out[p] = 1;
          else if (r > 0.55 && b > 0.4 && g < 0.45) out[p] = wholePhoto ? (b > 0.75 ? 0.95 : 0.6) : 0.02;
        }
        return out;
      },
    };
    const product = { x: 200, y: 250, w: 110, h: 70 };
    const stone = `<ellipse cx="285" cy="215" rx="45" ry="45" fill="#c866a0"/><ellipse cx="300" cy="185" rx="12" ry="10" fill="#d070d8"/>`;
    const layer = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">${stone}<rect x="${product.x}" y="${product.y}" width="${product.w}" height="${product.h}" fill="#c8281e"/></svg>`,
    );
    const jpeg = await sharp(grass(), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
      .composite([{ input: layer }])
      .jpeg({ quality: 92 })
      .toBuffer();

    const alpha = await alphaOf(await new LocalImageModel({ salient: shoeOnPebbles }).removeBackground(jpeg));
    expect(looks).toBe(2);
    expect(alpha[285 * WIDTH + 255]).toBe(255);
    expect(alpha[200 * WIDTH + 285]).toBe(0);
    expect(alpha[243 * WIDTH + 290]).toBe(0);
    expect(alpha[185 * WIDTH + 300]).toBe(0);
  });

  it('fails with the model failure, not a crash, when the model cannot run', async () => {
    const broken: SalientObjectModel = {
      ...salient,
      description: 'broken',
      inputWidth: 256,
      inputHeight: 256,
      mean: salient.mean,
      std: salient.std,
      predict: () => salient.predict(new Float32Array(3)),
    };
    const { jpeg } = await photo([{ x: 150, y: 150, w: 200, h: 170 }]);
    await expect(new LocalImageModel({ salient: broken }).removeBackground(jpeg)).rejects.toMatchObject({
      code: 'model_failed',
    });
  });
});

describe("the seller's taps", () => {
  it('adds a part the model missed under a second keep tap: a strap of another colour', async () => {
    // The stand-in model sees red only: the blue strap over the red box is missed without the tap on it.
    const box = `<rect x="150" y="150" width="200" height="170" fill="#c8281e"/>`;
    const strap = `<path d="M190 152 Q250 60 310 152" stroke="#2850b4" stroke-width="9" fill="none"/>`;
    const { jpeg, truth } = await svgPhoto(box + strap);
    const model = new LocalImageModel({ salient });
    const alpha = await alphaOf(
      await model.removeBackground(jpeg, { taps: [tapAt(250, 235, true), tapAt(250, 106, true)] }),
    );
    expect(alpha[106 * WIDTH + 250]).toBeGreaterThanOrEqual(128);
    expect(alpha[116 * WIDTH + 220]).toBeGreaterThanOrEqual(128);
    expect(alpha[116 * WIDTH + 280]).toBeGreaterThanOrEqual(128);
    expect(alpha[60 * WIDTH + 250]).toBe(0);
    expect(iou(truth, alpha)).toBeGreaterThan(0.93);
  });

  it('removes a neighbour of the same colour under a drop tap, the product kept whole', async () => {
    // The neighbour behind is the product's very red; only the product's darker outline parts them.
    const neighbour = `<rect x="270" y="110" width="180" height="200" fill="#c8281e"/>`;
    const product = `<rect x="110" y="150" width="190" height="160" fill="#c8281e" stroke="#7a1812" stroke-width="4"/>`;
    const { jpeg } = await svgPhoto(neighbour + product);
    const truth = await truthOf(product);
    const model = new LocalImageModel({ salient });
    const alpha = await alphaOf(
      await model.removeBackground(jpeg, { taps: [tapAt(205, 230, true), tapAt(380, 200, false)] }),
    );
    expect(alpha[230 * WIDTH + 205]).toBe(255);
    expect(alpha[200 * WIDTH + 380]).toBe(0);
    expect(alpha[290 * WIDTH + 420]).toBe(0);
    expect(iou(truth, alpha)).toBeGreaterThan(0.93);
  });

  it('keeps the product whole under a keep tap on its print when a window draws it apart from a same-colour neighbour', async () => {
    // As ISNet does with a mug beside a mug set: across the whole photo product and neighbour are
    // one object; in a window that cuts the neighbour, only the product. Split by colour alone,
    // the neighbour's red would take the product's red away from a tap on the white print.
    const neighbour = `<rect x="260" y="110" width="180" height="200" fill="#c8281e"/>`;
    const product = `<rect x="90" y="150" width="190" height="160" fill="#c8281e" stroke="#7a1812" stroke-width="4"/>`;
    const print = `<rect x="170" y="218" width="30" height="24" fill="#f4f4f0"/>`;
    const { jpeg } = await svgPhoto(neighbour + product + print);
    const truth = await truthOf(product);
    const model = new LocalImageModel({ salient: apartInWindows });
    const alpha = await alphaOf(
      await model.removeBackground(jpeg, { taps: [tapAt(185, 230, true), tapAt(380, 200, false)] }),
    );
    for (const [x, y] of [
      [185, 230],
      [110, 170],
      [260, 290],
      [120, 295],
    ] as const)
      expect(alpha[y * WIDTH + x]).toBe(255);
    expect(alpha[200 * WIDTH + 380]).toBe(0);
    expect(iou(truth, alpha)).toBeGreaterThan(0.93);
  });

  it('removes a strip of a same-colour neighbour that the colour split took with the product, far from the drop tap', async () => {
    // A browner neighbour with two patches of the product's own red: a strip against the product and
    // a square where the seller taps Remove. Told apart by colour from the keep tap (no window draws
    // the product alone), the product takes the strip along, and the drop tap is more than a finger
    // from it: the drop split must still run.
    const neighbour = `<rect x="270" y="100" width="200" height="220" fill="#96322a"/><rect x="282" y="150" width="22" height="160" fill="#c8281e"/><rect x="322" y="150" width="24" height="24" fill="#c8281e"/>`;
    const product = `<rect x="200" y="150" width="80" height="160" fill="#c8281e" stroke="#7a1812" stroke-width="4"/>`;
    const { jpeg } = await svgPhoto(neighbour + product);
    const truth = await truthOf(product);
    const model = new LocalImageModel({ salient });
    const alpha = await alphaOf(
      await model.removeBackground(jpeg, { taps: [tapAt(210, 230, true), tapAt(334, 162, false)] }),
    );
    expect(alpha[230 * WIDTH + 210]).toBe(255);
    expect(alpha[220 * WIDTH + 293]).toBe(0);
    expect(alpha[162 * WIDTH + 334]).toBe(0);
    // The keep side still holds the strip’s lower end; the whole strip kept would score about 0.78.
    expect(iou(truth, alpha)).toBeGreaterThan(0.88);
  });

  it('clears a hole the model filled under a drop tap, and never punches the product around it', async () => {
    // A red frame; through its hole a maroon wall shows, which the model takes for product too.
    const frame = `<path d="M150 120h180v160h-180z M200 170v60h80v-60z" fill="#c8281e" fill-rule="evenodd"/>`;
    const model = new LocalImageModel({ salient });
    const truth = await truthOf(frame);
    for (const hole of ['#6e1e1e', 'none']) {
      const { jpeg } = await svgPhoto(`<rect x="200" y="170" width="80" height="60" fill="${hole}"/>${frame}`);
      const alpha = await alphaOf(
        await model.removeBackground(jpeg, { taps: [tapAt(175, 200, true), tapAt(240, 200, false)] }),
      );
      expect(alpha[200 * WIDTH + 240]).toBe(0);
      for (const [x, y] of [
        [175, 200],
        [305, 200],
        [240, 145],
        [240, 255],
      ] as const)
        expect(alpha[y * WIDTH + x]).toBe(255);
      expect(iou(truth, alpha)).toBeGreaterThan(0.93);
    }
  });

  it('cuts out a small dark product where the seller tapped, though the model is unsure of everything in the photo', async () => {
    // A dark brown product the stand-in model marks only about 0.7: too unsure to find alone, no reason to refuse once tapped.
    const product = `<rect x="300" y="250" width="70" height="56" fill="rgb(96,62,54)"/>`;
    const { jpeg } = await svgPhoto(product);
    const model = new LocalImageModel({ salient });
    const alpha = await alphaOf(await model.removeBackground(jpeg, { taps: [tapAt(335, 278, true)] }));
    expect(iou(await truthOf(product), alpha)).toBeGreaterThan(0.85);
  });

  it('keeps two small products far apart under two keep taps, though the whole photo’s run drew neither', async () => {
    // Each too small for the model across the whole photo (a pair of lenses on pebbles); each seen in a window around its tap.
    const first = `<rect x="94" y="94" width="12" height="12" fill="#c8281e"/>`;
    const second = `<rect x="394" y="274" width="12" height="12" fill="#c8281e"/>`;
    const { jpeg } = await svgPhoto(first + second);
    const model = new LocalImageModel({ salient });
    const alpha = await alphaOf(
      await model.removeBackground(jpeg, { taps: [tapAt(100, 100, true), tapAt(400, 280, true)] }),
    );
    expect(alpha[100 * WIDTH + 100]).toBeGreaterThanOrEqual(128);
    expect(alpha[280 * WIDTH + 400]).toBeGreaterThanOrEqual(128);
    expect(iou(await truthOf(first + second), alpha)).toBeGreaterThan(0.6);
  });

  it('takes taps on nothing as harmless: a keep tap and a drop tap on the grass change nothing', async () => {
    const { jpeg, truth } = await photo([{ x: 150, y: 150, w: 200, h: 170 }]);
    const model = new LocalImageModel({ salient });
    const product = tapAt(250, 235, true);
    const alone = await alphaOf(await model.removeBackground(jpeg, { taps: [product] }));
    const withStrayTaps = await alphaOf(
      await model.removeBackground(jpeg, { taps: [tapAt(60, 60, true), tapAt(450, 340, false), product] }),
    );
    expect(iou(truth, withStrayTaps)).toBeGreaterThan(0.95);
    expect(withStrayTaps.equals(alone)).toBe(true);
  });
});

/**
 * A stand-in for how ISNet draws objects of one colour that touch: red objects a window cuts are
 * not drawn; the others are, with what they enclose (a print), and a dark red outline with them.
 * Nothing is cut across the whole photo, so there everything red is one object.
 */
const apartInWindows: SalientObjectModel = {
  description: 'objects apart in windows',
  inputWidth: 256,
  inputHeight: 256,
  mean: [0, 0, 0],
  std: [1, 1, 1],
  predict(input) {
    const size = 256,
      plane = size * size;
    const colour = (p: number) => [input[p]!, input[plane + p]!, input[2 * plane + p]!] as const;
    const bright = Uint8Array.from({ length: plane }, (_, p) => (isRed(colour(p)) ? 1 : 0));
    const outline = Uint8Array.from({ length: plane }, (_, p) => {
      const [r, g, b] = colour(p);
      return r > 0.3 && g < 0.2 && b < 0.2 && !bright[p] ? 1 : 0;
    });
    const onBorder = (p: number) => p % size === 0 || p % size === size - 1 || p < size || p >= plane - size;
    const drawn = new Uint8Array(plane);
    for (const part of components(bright, size)) if (!part.some(onBorder)) for (const p of part) drawn[p] = 1;
    for (let p = 0; p < plane; p++) if (outline[p]) drawn[p] = 1;
    // What the drawn objects enclose is theirs: every pixel the border cannot reach around them.
    const outside = components(
      Uint8Array.from(drawn, (d) => 1 - d),
      size,
    ).filter((part) => part.some(onBorder));
    const open = new Uint8Array(plane);
    for (const part of outside) for (const p of part) open[p] = 1;
    return Promise.resolve(Float32Array.from(open, (o) => (o ? 0 : 1)));
  },
};

/** 4-connected parts of a square 0/1 plane, as pixel lists. */
function components(plane: Uint8Array, size: number): number[][] {
  const seen = new Uint8Array(plane.length),
    parts: number[][] = [];
  for (let start = 0; start < plane.length; start++) {
    if (!plane[start] || seen[start]) continue;
    const part = [start];
    seen[start] = 1;
    for (let i = 0; i < part.length; i++) {
      const p = part[i]!,
        x = p % size;
      for (const q of [x > 0 ? p - 1 : -1, x < size - 1 ? p + 1 : -1, p - size, p + size])
        if (q >= 0 && q < plane.length && plane[q] && !seen[q]) {
          seen[q] = 1;
          part.push(q);
        }
    }
    parts.push(part);
  }
  return parts;
}

function isRed([r, g, b]: readonly [number, number, number]): boolean {
  return r > 0.6 && g < 0.3 && b < 0.3;
}
