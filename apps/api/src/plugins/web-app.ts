import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { errorBody } from './error-handler.js';

/**
 * Serves the built SPA: real files from the Vite output, index.html for every other GET outside
 * /api so that client-side routes survive a reload. Unknown /api paths stay JSON 404s.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string | undefined): Promise<void> {
  const hasBuild = distDir !== undefined && existsSync(path.join(distDir, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: path.resolve(distDir),
      wildcard: false,
      index: false,
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
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    if (isApi || !hasBuild || request.method !== 'GET') {
      return reply.status(404).send(errorBody(404, `Route ${request.method} ${request.url.split('?')[0]} not found`, 'not_found'));
    }
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
}
