import type { Plugin } from 'vite';

/** The pages a visitor reaches without an account: what search engines may list. */
export const PUBLIC_PAGES = ['/', '/pricing', '/sign-up', '/terms-of-service', '/privacy-policy'] as const;

/**
 * sitemap.xml in the build. Its addresses must be absolute, so the origin is PUBLIC_URL at build
 * time, or else the one the API itself defaults to (packages/config): a deployment builds with its
 * PUBLIC_URL set.
 */
export function sitemap(origin = process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}`): Plugin {
  const base = origin.replace(/\/$/, '');
  const urls = PUBLIC_PAGES.map((page) => `  <url><loc>${base}${page}</loc></url>`).join('\n');
  return {
    name: 'prodshot-sitemap',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'sitemap.xml',
        source: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
      });
    },
  };
}
