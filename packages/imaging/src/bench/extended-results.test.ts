import { describe, expect, it } from 'vitest';
import { measuredText } from './extended-results.js';
import type { ExtendedRow } from './extended-set-bench.js';

const row = (measured?: ExtendedRow['measured']) => ({ measured }) as ExtendedRow;

describe('measuredText', () => {
  it('names the one run a category was measured in', () => {
    expect(measuredText([row({ code: 'bb35fa5', day: '2026-12-07' }), row({ code: 'bb35fa5', day: '2026-12-07' })])).toBe('at bb35fa5 on 2026-12-07');
  });

  it('names every run when rows were kept from runs at other code, and rows that recorded none', () => {
    expect(measuredText([row({ code: 'bb35fa5', day: '2026-12-07' }), row({ code: '6c0865a+local changes', day: '2026-12-06' }), row()])).toBe(
      'at bb35fa5 on 2026-12-07; at 6c0865a+local changes on 2026-12-06; at an unrecorded commit',
    );
  });
});
