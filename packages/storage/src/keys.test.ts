import { describe, expect, it } from 'vitest';
import {
  assertSafeKey,
  contentTypeForKey,
  exportKey,
  generationOutputKey,
  InvalidKeyError,
  uploadCutoutKey,
  uploadOutlineKey,
  derivedPrefix,
  uploadKey,
  userPrefix,
} from './keys.js';

describe('key layout', () => {
  it('places every object under its user folder', () => {
    expect(uploadKey('u1', 'f1', 'image/jpeg')).toBe('users/u1/uploads/f1.jpg');
    expect(generationOutputKey('u1', 'g1', 2, 'image/png')).toBe('users/u1/generations/g1/2.png');
    expect(userPrefix('u1')).toBe('users/u1/');
  });

  it('keeps the cutouts of an upload beside it, one per list of taps', () => {
    const upload = uploadKey('u1', 'f1', 'image/jpeg');
    expect(derivedPrefix(upload)).toBe('users/u1/uploads/f1/');
    expect(uploadCutoutKey(upload)).toBe('users/u1/uploads/f1/cutout.png');
    expect(uploadCutoutKey(upload, [])).toBe('users/u1/uploads/f1/cutout.png');
    // A lone keep tap is the single point of before: its stored cutout is found again.
    expect(uploadCutoutKey(upload, [{ x: 0.25, y: 0.6667, keep: true }])).toBe(
      'users/u1/uploads/f1/cutout-250-667.png',
    );
    expect(uploadOutlineKey(upload)).toBe('users/u1/uploads/f1/outline.webp');
    expect(uploadOutlineKey(upload, [{ x: 0.25, y: 0.6667, keep: true }])).toBe(
      'users/u1/uploads/f1/outline-250-667.webp',
    );
  });

  it('names any other list of taps by a short hash of the taps, in order, each to a thousandth', () => {
    const upload = uploadKey('u1', 'f1', 'image/jpeg');
    const keep = { x: 0.25, y: 0.5, keep: true };
    const drop = { x: 0.75, y: 0.5, keep: false };
    const key = uploadCutoutKey(upload, [keep, drop]);
    expect(key).toMatch(/^users\/u1\/uploads\/f1\/cutout-taps-[0-9a-f]{16}\.png$/);
    expect(uploadCutoutKey(upload, [{ ...keep, x: 0.2501 }, drop])).toBe(key);
    expect(uploadOutlineKey(upload, [keep, drop])).toBe(key.replace('cutout', 'outline').replace('.png', '.webp'));
    const others = [
      [drop, keep],
      [keep, { ...drop, keep: true }],
      [keep],
      [drop],
      [keep, drop, drop],
      [keep, { ...drop, y: 0.51 }],
    ];
    const keys = new Set([key, ...others.map((taps) => uploadCutoutKey(upload, taps))]);
    expect(keys.size).toBe(others.length + 1);
  });

  it('keeps exports in their generation folder, one per output, preset and format', () => {
    expect(exportKey('u1', 'g1', 1, 'amazon', 'image/jpeg')).toBe('users/u1/generations/g1/exports/1-amazon.jpg');
    expect(exportKey('u1', 'g1', 1, 'amazon', 'image/webp')).not.toBe(exportKey('u1', 'g1', 1, 'amazon', 'image/jpeg'));
    expect(() => exportKey('u1', 'g1', 0, '../x', 'image/png')).toThrow(InvalidKeyError);
  });

  it('refuses ids that would escape the layout', () => {
    expect(() => uploadKey('..', 'f', 'image/png')).toThrow(InvalidKeyError);
    expect(() => uploadKey('u1', 'a/../../b', 'image/png')).toThrow(InvalidKeyError);
    expect(() => generationOutputKey('u1', 'g1', -1, 'image/png')).toThrow(InvalidKeyError);
    expect(() => assertSafeKey('users/u1/%2e%2e')).toThrow(InvalidKeyError);
  });

  it('derives the content type from the extension it wrote', () => {
    expect(contentTypeForKey('users/u/uploads/f.jpg')).toBe('image/jpeg');
    expect(contentTypeForKey('users/u/uploads/f.svg')).toBe('application/octet-stream');
  });
});
