import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_PAGES } from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';

/**
 * `GET /sitemap.xml`: the public pages at PUBLIC_URL. Served by the API rather than built into the
 * web app because a sitemap's addresses are absolute and one build (or image) runs at many origins.
 */
export async function sitemapRoutes(appBase: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const body = sitemapXml(deps.config.http.publicUrl);
  const schema = {
    hide: true,
    response: {
      200: {
        description: 'The public pages at PUBLIC_URL',
        content: { 'application/xml': { schema: { type: 'string' } } },
      },
    },
  };
  app.get('/sitemap.xml', { schema }, async (_request, reply) =>
    reply.type('application/xml; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(body),
  );
}

export function sitemapXml(publicUrl: string): string {
  const base = publicUrl.replace(/\/+$/, '');
  const urls = PUBLIC_PAGES.map((page) => `  <url><loc>${escapeXml(`${base}${page}`)}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
