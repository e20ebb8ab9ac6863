/**
 * The home page's pictures live in public/showcase as 640 px JPEGs; the build (build/webp-variants.ts)
 * writes a WebP copy of each at these widths, `{name}-{width}.webp`, for `srcset`.
 */
export const SHOWCASE_WIDTHS = [320, 640] as const;

export function showcaseSrc(name: string, width: number = SHOWCASE_WIDTHS[SHOWCASE_WIDTHS.length - 1]!): string {
  return `/showcase/${name}-${width}.webp`;
}

export function showcaseSrcSet(name: string): string {
  return SHOWCASE_WIDTHS.map((width) => `${showcaseSrc(name, width)} ${width}w`).join(', ');
}

/** The hero: the largest picture above the fold, so index.html preloads it (see the build plugin). */
export const HERO = { name: 'gallery-1', sizes: '(max-width: 860px) 92vw, 33rem' } as const;
