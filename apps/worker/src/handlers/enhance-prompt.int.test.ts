import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildWorkerDeps, jobOf, type TestWorkerDeps } from '../worker-deps.test-support.js';
import { enhancePrompt } from './enhance-prompt.js';

const stack = inject('stack');
let t: TestWorkerDeps;
beforeAll(async () => {
  t = await buildWorkerDeps(stack);
});
afterAll(() => t.close());

describe('enhance-prompt', () => {
  it('answers the engine’s richer prompt for the seller, and writes nothing', async () => {
    const seen: unknown[] = [];
    const deps = t.withEngine({
      enhancePrompt: (prompt, analysis, context) => {
        seen.push(context);
        return t.deps.engine.enhancePrompt(prompt, analysis, context);
      },
    });

    const { enhancedPrompt } = await enhancePrompt.run(
      jobOf('enhance-prompt', { userId: 'seller-1', prompt: 'on a beach' }),
      deps,
    );

    expect(enhancedPrompt).toContain('beach');
    expect(enhancedPrompt.length).toBeGreaterThan('on a beach'.length);
    expect(seen).toEqual([{ sellerId: 'seller-1' }]);
    expect(t.events).toEqual([]);
  });
});
