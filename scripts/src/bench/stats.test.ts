import { describe, expect, it } from 'vitest';
import { median, percentile } from './stats.js';

describe('percentile', () => {
  it('uses the nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(median([3, 1, 2])).toBe(2);
  });

  it('is NaN for no sample', () => {
    expect(percentile([], 50)).toBeNaN();
  });
});
