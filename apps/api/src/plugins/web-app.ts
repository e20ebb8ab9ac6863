import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { errorBody } from './error-handler.js';
import { precompressDir } from './precompress.js';

/**
 * Serves the built SPA: real files from the Vite output (their brotli or gzip copy when the
 * browser takes one), the app's page for every other GET outside /api so that client-side routes
 * survive a reload. Unknown /api paths and missing files stay 404s. The page is index.html at / and
 * app.html elsewhere when the build has one: the same page without the home hero's preload.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string | undefined): Promise<void> {
  const hasBuild = distDir !== undefined && existsSync(path.join(distDir, 'index.html'));
  const appPage = hasBuild && existsSync(path.join(distDir, 'app.html')) ? 'app.html' : 'index.html';
  if (hasBuild) {
    await precompressBuild(app, distDir);
    await app.register(fastifyStatic, {
      root: path.resolve(distDir),
      wildcard: false,
      index: false,
      // The API writes the sitemap for its PUBLIC_URL; an older build's file must not take its route.
      globIgnore: ['sitemap.xml'],
      preCompressed: true,
      // Vite fingerprints asset names, so they can be cached for good; index.html never is.
      setHeaders: (res, file) => {
        const immutable = file.includes(`${path.sep}assets${path.sep}`);
        res.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn({ distDir }, 'web build not found: only /api is served (run `npm run build`)');
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0]!;
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    if (isApi || OPERATOR_PATH.test(request.url) || !hasBuild || request.method !== 'GET' || namesFile(request.url)) {
      return reply.status(404).send(errorBody(404, `Route ${request.method} ${pathname} not found`, 'not_found'));
    }
    return reply.header('Cache-Control', 'no-cache').sendFile(pathname === '/' ? 'index.html' : appPage);
  });
}

/** Served on the ops listener only: the public port says they do not exist rather than showing the SPA. */
const OPERATOR_PATH = /^\/(metrics|admin)([/?]|$)/;

/**
 * A path under /assets or with an extension names a file, not a client route: a missing one (a
 * chunk of an older build, a robots.txt never built) is a 404, as index.html in its place would
 * be parsed as script, style or text.
 */
function namesFile(url: string): boolean {
  const pathname = url.split('?')[0]!;
  return pathname.startsWith('/assets/') || path.posix.extname(pathname) !== '';
}

/** Done at boot when the build has no compressed copies yet; an image built read-only made them at build time. */
async function precompressBuild(app: FastifyInstance, distDir: string): Promise<void> {
  try {
    const written = await precompressDir(distDir);
    if (written > 0) app.log.info({ distDir, written }, 'web build precompressed (brotli, gzip)');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EROFS' && code !== 'EPERM') throw error;
    app.log.warn(
      { distDir, code },
      'web build is read-only and not precompressed: its files are compressed per request',
    );
  }
}
