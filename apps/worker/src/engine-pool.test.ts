import { describe, expect, it } from 'vitest';
import { threadsPerRender } from './engine-pool.js';

describe('threadsPerRender', () => {
  it('shares the worker CPUs among the renders it runs at once, never below one', () => {
    expect(threadsPerRender(8, 2)).toBe(4);
    expect(threadsPerRender(2, 2)).toBe(1);
    expect(threadsPerRender(3, 2)).toBe(1);
    expect(threadsPerRender(1, 4)).toBe(1);
    expect(threadsPerRender(2, 1)).toBe(2);
  });
});
