import { describe, expect, it } from 'vitest';
import { waitUntilReady } from './wait-until-ready.js';

/** A store whose first `failures` calls fail, as one behind a stall would. */
function storeFailing(failures: number) {
  const store = {
    calls: 0,
    async ensureReady() {
      store.calls += 1;
      if (store.calls <= failures) throw new Error(`stalled (${store.calls})`);
    },
  };
  return store;
}

describe('waitUntilReady', () => {
  it('keeps trying a store that fails at first, and says so on each failed try', async () => {
    const store = storeFailing(2);
    const retries: string[] = [];
    await waitUntilReady(store, { onRetry: (error, attempt) => retries.push(`${attempt}: ${error.message}`) });
    expect(store.calls).toBe(3);
    expect(retries).toEqual(['1: stalled (1)', '2: stalled (2)']);
  });

  it('gives up with the last error once its time is spent', async () => {
    const store = storeFailing(Number.POSITIVE_INFINITY);
    await expect(waitUntilReady(store, { maxWaitMs: 600 })).rejects.toThrow(/stalled/);
    expect(store.calls).toBeGreaterThan(1);
  });
});
