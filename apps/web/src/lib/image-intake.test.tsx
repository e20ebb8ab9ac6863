import { describe, expect, it } from 'vitest';
import { sizedFile } from '../test-support/files.js';
import { DASHBOARD_MAX_BYTES, imageFileProblem, SMART_MAX_BYTES } from './image-intake.js';

describe('imageFileProblem', () => {
  it('takes an image up to the limit, exactly at it too', () => {
    expect(imageFileProblem(sizedFile('mug.png', 'image/png', DASHBOARD_MAX_BYTES), DASHBOARD_MAX_BYTES)).toBeNull();
    expect(imageFileProblem(sizedFile('mug.webp', 'image/webp', SMART_MAX_BYTES), SMART_MAX_BYTES)).toBeNull();
  });

  it('names a file over the limit, its size and the limit', () => {
    expect(imageFileProblem(sizedFile('big.jpg', 'image/jpeg', DASHBOARD_MAX_BYTES + 1), DASHBOARD_MAX_BYTES)).toBe(
      '"big.jpg" is 10.1 MB. Please select an image under 10MB.',
    );
    expect(imageFileProblem(sizedFile('big.jpg', 'image/jpeg', 7.25 * 1024 * 1024), SMART_MAX_BYTES)).toBe(
      '"big.jpg" is 7.3 MB. Please select an image under 5MB.',
    );
  });

  it('refuses what is not an image, however small, with the spec words', () => {
    expect(imageFileProblem(sizedFile('notes.pdf', 'application/pdf', 10), DASHBOARD_MAX_BYTES)).toBe(
      '"notes.pdf" is not an image. Please select an image file (JPEG, PNG, etc.)',
    );
    expect(imageFileProblem(sizedFile('', '', 10), SMART_MAX_BYTES)).toBe(
      'This file is not an image. Please select an image file (JPEG, PNG, etc.)',
    );
  });
});
