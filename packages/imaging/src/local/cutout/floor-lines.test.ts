import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../input/normalise-input.js';
import { withoutFloorLines } from './floor-lines.js';

const SIZE = 300;
const TILE = [60, 75, 100],
  GROUT = [180, 180, 175],
  WHITE = [245, 245, 245],
  BLACK = [30, 30, 30];

const inShoe = (x: number, y: number) => x >= 100 && x < 200 && y >= 150 && y < 200;
const onGroutColumn = (x: number) => x >= 149 && x < 152;
const onGroutRow = (y: number) => y >= 174 && y < 177;
const temple = (x: number, y: number) => x >= 200 && x < 260 && y >= 152 && y < 155;
const strap = (x: number, y: number) => y < 150 && Math.abs(Math.hypot(x - 150, y - 150) - 40) <= 1;
const at = (x: number, y: number) => y * SIZE + x;

/** A white shoe on dark blue tiles whose light grout runs the photo's full height and width. */
function photo(extra: (x: number, y: number) => number[] | null = () => null): RawImage {
  const data = Buffer.alloc(SIZE * SIZE * 4);
  for (let y = 0; y < SIZE; y++)
    for (let x = 0; x < SIZE; x++) {
      const colour = inShoe(x, y) ? WHITE : (extra(x, y) ?? (onGroutColumn(x) || onGroutRow(y) ? GROUT : TILE));
      data.set([...colour, 255], at(x, y) * 4);
    }
  return { data, width: SIZE, height: SIZE, hasAlpha: false, sourceFormat: 'jpeg' };
}

/** A soft mask: 255 where `inside` says so, 0 elsewhere. */
function maskOf(inside: (x: number, y: number) => boolean): Uint8Array {
  const soft = new Uint8Array(SIZE * SIZE);
  for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) soft[at(x, y)] = inside(x, y) ? 255 : 0;
  return soft;
}

function expectShoeWhole(kept: Uint8Array): void {
  let whole = true;
  for (let y = 150; y < 200; y++) for (let x = 100; x < 200; x++) whole &&= kept[at(x, y)] === 255;
  expect(whole).toBe(true);
}

describe('withoutFloorLines', () => {
  it('drops grout lines the mask follows from the product to the edges of the photo', () => {
    const soft = maskOf((x, y) => inShoe(x, y) || onGroutColumn(x) || (onGroutRow(y) && x >= 100));
    const kept = withoutFloorLines(soft, photo());
    for (const p of [at(150, 10), at(150, 120), at(150, 260), at(250, 175), at(299, 175)]) expect(kept[p]).toBe(0);
    expectShoeWhole(kept);
  });

  it('drops short spurs of grout when the photo draws the same line on past their ends', () => {
    const soft = maskOf((x, y) => inShoe(x, y) || (onGroutColumn(x) && y >= 120 && y < 230));
    const kept = withoutFloorLines(soft, photo());
    for (const p of [at(150, 122), at(150, 140), at(150, 215), at(150, 228)]) expect(kept[p]).toBe(0);
    expectShoeWhole(kept);
  });

  it('keeps thin parts the photo does not draw on past their ends: a temple, a strap loop', () => {
    const soft = maskOf((x, y) => inShoe(x, y) || temple(x, y) || strap(x, y));
    const image = photo((x, y) => (temple(x, y) || strap(x, y) ? BLACK : null));
    expect(withoutFloorLines(soft, image)).toEqual(soft);
  });

  it('keeps a temple of the grout colour that stops where the photo stops drawing it', () => {
    const soft = maskOf((x, y) => inShoe(x, y) || temple(x, y));
    const image = photo((x, y) => (temple(x, y) ? GROUT : y >= 150 && y < 160 && x >= 200 ? TILE : null));
    expect(withoutFloorLines(soft, image)).toEqual(soft);
  });

  it('keeps a product the frame cuts through its body', () => {
    const soft = maskOf((x, y) => x >= 100 && x < 200 && y >= 150);
    expect(withoutFloorLines(soft, photo())).toEqual(soft);
  });

  it('drops a crack of the floor beside the product that runs to the edge', () => {
    const soft = maskOf((x, y) => inShoe(x, y) || (x >= 20 && x < 23 && y < 100));
    const kept = withoutFloorLines(soft, photo());
    expect(kept[at(21, 0)]).toBe(0);
    expect(kept[at(21, 99)]).toBe(0);
    expectShoeWhole(kept);
  });
});
