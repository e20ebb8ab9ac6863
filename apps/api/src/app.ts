import { randomUUID } from 'node:crypto';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppDeps } from './deps.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerWebApp } from './plugins/web-app.js';
import { fileRoutes } from './routes/files/files.js';
import { healthRoutes } from './routes/health/health.js';

export interface BuildAppOptions {
  /** Folder of the built web app; omitted in API-only tests. */
  webDistDir?: string | undefined;
  logger?: boolean;
}

export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger === false ? false : { level: deps.config.logLevel },
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
    trustProxy: true,
  });
  registerErrorHandler(app);
  await app.register(helmet, { contentSecurityPolicy: { directives: contentSecurityPolicy(deps) } });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(healthRoutes, deps);
  await app.register(fileRoutes, deps);
  await registerWebApp(app, options.webDistDir);
  return app;
}

function contentSecurityPolicy(deps: AppDeps): Record<string, string[]> {
  const storageOrigin = deps.config.storage.driver === 'minio' ? minioOrigins(deps) : [];
  return {
    defaultSrc: ["'self'"],
    imgSrc: ["'self'", 'data:', 'blob:', ...storageOrigin],
    connectSrc: ["'self'", 'ws:', 'wss:', ...storageOrigin],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
  };
}

function minioOrigins(deps: AppDeps): string[] {
  const storage = deps.config.storage;
  if (storage.driver !== 'minio') return [];
  if (storage.publicUrl) return [new URL(storage.publicUrl).origin];
  const scheme = storage.useSSL ? 'https' : 'http';
  return [`${scheme}://${storage.endPoint}${storage.port ? `:${storage.port}` : ''}`];
}
