import { describe, expect, it } from 'vitest';
import { parsePrompt } from './parse-prompt.js';
import { resolveScene } from './scene-from-prompt.js';

describe('parsePrompt', () => {
  it('reads a material and its tone', () => {
    expect(parsePrompt('Wooden table').material).toEqual({ kind: 'wood', tone: null, word: 'wooden' });
    expect(parsePrompt('dark walnut desk').material?.tone).toBe('dark');
    expect(parsePrompt('light wood shelf').material).toMatchObject({ kind: 'wood', tone: 'light' });
  });

  it('reads places and two-word lighting phrases', () => {
    const beach = parsePrompt('Beach sunset');
    expect(beach.place).toBe('beach');
    expect(beach.lighting).toEqual(['sunset']);
    expect(parsePrompt('Studio lighting')).toMatchObject({ place: null, lighting: ['studio'] });
    expect(parsePrompt('product at golden hour').lighting).toEqual(['sunset']);
  });

  it('gives a colour to the surface when it qualifies a material, else to the backdrop', () => {
    const parsed = parsePrompt('pink marble on a navy background');
    expect(parsed.colours.map((c) => [c.word, c.role])).toEqual([
      ['pink', 'surface'],
      ['navy', 'backdrop'],
    ]);
  });

  it('lightens and darkens colours with shade words', () => {
    const [light] = parsePrompt('light blue').colours;
    const [plain] = parsePrompt('blue').colours;
    expect(light!.rgb[2]).toBeGreaterThan(plain!.rgb[2]);
  });

  it('reads moods and ignores words it does not know', () => {
    const parsed = parsePrompt('a cozy, minimalist vibe with zorblax');
    expect(parsed.moods).toEqual(['cozy', 'minimal']);
    expect(parsed.place).toBeNull();
  });
});

describe('resolveScene: the editor chips each look like what they say', () => {
  it("'Wooden table' is a wooden surface at eye level", () => {
    const { spec } = resolveScene(undefined, 'Wooden table');
    expect(spec.surface.kind).toBe('wood');
    expect(spec.view).toBe('eye-level');
  });

  it("'Beach sunset' is sand under a sky with a low sun over the sea, in warm light", () => {
    const { spec } = resolveScene(undefined, 'Beach sunset');
    expect(spec.surface.kind).toBe('sand');
    expect(spec.wall.kind).toBe('sky');
    expect(spec.props).toEqual(expect.arrayContaining(['sun', 'sea']));
    expect(spec.light.warmth).toBeGreaterThan(0.5);
  });

  it("'Modern kitchen' is a stone counter against a tiled wall, without clutter", () => {
    const { spec } = resolveScene(undefined, 'Modern kitchen');
    expect(spec.id).toBe('kitchen');
    expect(spec.wall.kind).toBe('tiles');
    expect(spec.surface.kind).toBe('marble');
  });

  it("'Studio lighting' is the studio sweep with a strong key light", () => {
    const { spec } = resolveScene(undefined, 'Studio lighting');
    expect(spec.wall.kind).toBe('sweep');
    expect(spec.light.spot).toBeGreaterThan(0.8);
  });

  it('makes a pastel backdrop a pastel gradient, not the grey studio sweep', () => {
    for (const prompt of [
      'playful pastel gradient backdrop',
      'soft pastel gradient of peach and lilac',
      'colourful studio backdrop',
    ]) {
      expect(resolveScene(undefined, prompt).spec.wall.kind, prompt).toBe('blobs');
    }
    expect(resolveScene(undefined, 'seamless light grey studio backdrop, studio lighting').spec.wall.kind).toBe(
      'sweep',
    );
  });

  it('lets a prompt refine a template and a material override a place', () => {
    expect(resolveScene('marble', 'dramatic').spec.vignette).toBeGreaterThan(
      resolveScene('marble', undefined).spec.vignette,
    );
    expect(resolveScene(undefined, 'concrete ledge on the beach').spec.surface.kind).toBe('concrete');
    expect(resolveScene(undefined, 'on a mint background').spec.wall.colours[0]).not.toEqual(
      resolveScene(undefined, undefined).spec.wall.colours[0],
    );
  });
});
