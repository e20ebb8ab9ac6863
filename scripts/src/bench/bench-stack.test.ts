import { describe, expect, it } from 'vitest';
import { coresFor } from './bench-stack.js';

describe('coresFor', () => {
  it('gives each worker its own cores in turn, wrapping round the machine', () => {
    expect([0, 1, 2, 3].map((n) => coresFor(n, 1, 2))).toEqual([[0], [1], [0], [1]]);
    expect(coresFor(1, 2, 4)).toEqual([2, 3]);
    expect(coresFor(0, 4, 2)).toEqual([0, 1]);
  });
});
