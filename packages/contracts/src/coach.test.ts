import { describe, expect, it } from 'vitest';
import { coachWarning, emptyPhotoWarning, withProductWarnings } from './coach.js';

describe('coach warnings', () => {
  it('names the product kind in the advice when it is known, and says product when not', () => {
    expect(coachWarning('product_cut_off', 'footwear').advice).toBe('Step back so the whole shoe is in the frame.');
    expect(coachWarning('product_cut_off').advice).toBe('Step back so the whole product is in the frame.');
  });

  it('keeps the pixel warnings and replaces the product ones when the worker reports again', () => {
    const blurry = coachWarning('blurry');
    const merged = withProductWarnings([blurry, coachWarning('busy_background')], [coachWarning('product_too_small')]);
    expect(merged.map((w) => w.code)).toEqual(['blurry', 'product_too_small']);
  });

  it('says which edges cut the product off', () => {
    expect(coachWarning('product_cut_off', 'footwear', ['left']).message).toBe('The shoe is cut off at the left edge.');
    expect(coachWarning('product_cut_off', 'unknown', ['right', 'bottom']).message).toBe(
      'The product is cut off at the bottom and right edges.',
    );
    expect(coachWarning('product_cut_off', 'unknown', ['left', 'top', 'right']).message).toBe(
      'The product is cut off at the top, left and right edges.',
    );
  });

  it('gives the size warning once, as the product checks judged it', () => {
    const merged = withProductWarnings(
      [coachWarning('low_resolution'), coachWarning('blurry')],
      [coachWarning('low_resolution')],
    );
    expect(merged.map((w) => w.code)).toEqual(['blurry', 'low_resolution']);
  });

  it('repeats why an upload was refused, as a product warning the worker replaces', () => {
    const refused = emptyPhotoWarning('it looks like a bare surface, with no product on it', 'footwear');
    expect(refused).toEqual({
      code: 'no_product',
      message: 'There is nothing to cut out in this photo: it looks like a bare surface, with no product on it.',
      advice: 'Photograph the shoe itself, in the middle of the frame, and upload that photo.',
    });
    expect(withProductWarnings([coachWarning('blurry'), refused], [])).toEqual([coachWarning('blurry')]);
  });
});
