import { describe, expect, it } from 'vitest';
import { MAX_TAPS, storedTaps, tapsOf } from './images.js';

describe('the seller’s taps', () => {
  it('reads a call’s lone point as one keep tap, and a list as it is', () => {
    expect(tapsOf(undefined)).toBeUndefined();
    expect(tapsOf({ x: 0.2, y: 0.5 })).toEqual([{ x: 0.2, y: 0.5, keep: true }]);
    expect(
      tapsOf([
        { x: 0.2, y: 0.5, keep: false },
        { x: 0.7, y: 0.1, keep: true },
      ]),
    ).toEqual([
      { x: 0.2, y: 0.5, keep: false },
      { x: 0.7, y: 0.1, keep: true },
    ]);
  });

  it('reads back a stored focus: a list of taps, or a single point stored before taps; anything else is none', () => {
    const taps = [{ x: 0.2, y: 0.5, keep: false }];
    expect(storedTaps(taps)).toEqual(taps);
    expect(storedTaps({ x: 0.2, y: 0.5 })).toEqual([{ x: 0.2, y: 0.5, keep: true }]);
    for (const stored of [
      null,
      undefined,
      [],
      {},
      { x: 2, y: 0.5 },
      [{ x: 0.2, y: 0.5 }],
      [{ x: 0.2, y: 0.5, keep: 'no' }],
      Array.from({ length: MAX_TAPS + 1 }, () => taps[0]),
    ]) {
      expect(storedTaps(stored), JSON.stringify(stored)).toBeUndefined();
    }
  });
});
