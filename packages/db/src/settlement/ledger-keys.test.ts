import { describe, expect, it } from 'vitest';
import { ledgerKeys } from './ledger-keys.js';

describe('ledgerKeys', () => {
  it('names a generation’s moves as the ledger has always held them', () => {
    expect(ledgerKeys.reserve('g')).toBe('reserve:g');
    expect(ledgerKeys.reserveSlot('g', 2)).toBe('reserve:g:2');
    expect(ledgerKeys.settle('g', 0)).toBe('settle:g:0');
    expect(ledgerKeys.refundSlot('g', 3)).toBe('refund:g:3');
    for (const reason of ['enqueue', 'sweep', 'unsupported', 'unused', 'recommendation'] as const) {
      expect(ledgerKeys.refundGeneration('g', reason)).toBe(`refund:g:${reason}`);
    }
  });

  it('keeps a retried style’s moves apart from its earlier attempts’, and the first attempt’s keys as they were', () => {
    expect([ledgerKeys.reserveSlot('g', 1, 0), ledgerKeys.settle('g', 1, 0), ledgerKeys.refundSlot('g', 1, 0)]).toEqual(
      ['reserve:g:1', 'settle:g:1', 'refund:g:1'],
    );
    expect([ledgerKeys.reserveSlot('g', 1, 2), ledgerKeys.settle('g', 1, 2), ledgerKeys.refundSlot('g', 1, 2)]).toEqual(
      ['reserve:g:1:retry-2', 'settle:g:1:retry-2', 'refund:g:1:retry-2'],
    );
  });
});
