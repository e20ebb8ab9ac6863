import { describe, expect, it } from 'vitest';
import { recommendationMode } from './style-recommendation-mode.js';

const common = { generationId: 'g', userId: 'u', imageId: 'i', sourceKey: 'k', size: 1024 } as const;

describe('a style-recommendation payload’s mode', () => {
  it('is what the payload names', () => {
    expect(recommendationMode({ ...common, mode: 'fan-out', styleCount: 3 })).toEqual({
      ...common,
      mode: 'fan-out',
      styleCount: 3,
    });
    expect(recommendationMode({ ...common, mode: 'client' })).toEqual({ ...common, mode: 'client' });
  });

  it('is read from the flag of a job queued before payloads named it', () => {
    expect(recommendationMode({ ...common, fanOut: true, styleCount: 4 })).toEqual({
      ...common,
      mode: 'fan-out',
      styleCount: 4,
    });
    expect(recommendationMode({ ...common, fanOut: false, styleCount: 0 })).toEqual({ ...common, mode: 'client' });
  });
});
