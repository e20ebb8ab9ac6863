import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { createPublisher } from '@prodshot/contracts';
import { createRepositories, WebhookEvents } from '@prodshot/db';
import { createOpsServer } from '@prodshot/queue';
import { ArchiveLinkSecret } from '@prodshot/storage';
import type { AppDeps } from './deps.js';
import { registerAdminQueues } from './plugins/admin-queues.js';
import { registerAuth } from './plugins/auth.js';
import { contentSecurityPolicy } from './plugins/content-security-policy.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerLoadShedding } from './plugins/load-shedding.js';
import { createApiMetrics, registerMetrics } from './plugins/metrics.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerRateLimits } from './plugins/rate-limits.js';
import { registerRouteAccess } from './plugins/route-access.js';
import { serializeRequest } from './plugins/request-log.js';
import { registerWebApp } from './plugins/web-app.js';
import { sitemapRoutes } from './routes/site/sitemap.js';
import { attachRealtime } from './realtime/socket-server.js';
import { authRoutes } from './routes/auth/auth.js';
import { batchRoutes } from './routes/batches/batches.js';
import { clientConfigRoutes } from './routes/client-config/client-config.js';
import { devRoutes } from './routes/dev/dev.js';
import { fileRoutes } from './routes/files/files.js';
import { complianceRoutes } from './routes/generations/compliance.js';
import { exportRoutes } from './routes/exports/exports.js';
import { generationRoutes } from './routes/generations/generations.js';
import { generateShotRoutes } from './routes/images/generate-shots.js';
import { imageRoutes } from './routes/images/images.js';
import { imageTitleRoutes } from './routes/images/image-title.js';
import { recentGenerationRoutes } from './routes/images/recent-generations.js';
import { iterateRoutes } from './routes/generations/iterate.js';
import { apiKeyRoutes } from './routes/keys/keys.js';
import { webhookEndpointRoutes } from './routes/webhooks/webhook-endpoints.js';
import { apiDependencyChecks, healthRoutes } from './routes/health/health.js';
import { paymentRoutes } from './routes/payments/payments.js';
import { uploadRoutes } from './routes/uploads/uploads.js';
import { userRoutes } from './routes/users/users.js';
import { stripeWebhookRoutes } from './routes/webhooks/stripe.js';
import { createServices } from './services/services.js';
import type { CreditsChangedListener } from './services/billing/credit-transactions.js';

const API_VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export interface BuildAppOptions {
  /** Folder of the built web app; omitted in API-only tests. */
  webDistDir?: string | undefined;
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: NodeJS.WritableStream;
}

/** The public app and its operator listener, each listening on its own port; closing the app closes both. */
export interface ApiApps {
  app: FastifyInstance;
  ops: FastifyInstance;
}

export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Promise<ApiApps> {
  const logger =
    options.logger === false
      ? false
      : {
          level: deps.config.logLevel,
          serializers: { req: serializeRequest },
          ...(options.logStream ? { stream: options.logStream } : {}),
        };
  const app = Fastify({
    logger,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
    trustProxy: deps.config.trustProxy,
  });
  registerErrorHandler(app);
  await app.register(helmet, { contentSecurityPolicy: { directives: contentSecurityPolicy(deps.config) } });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // These wrap or collect routes as they are added, so they come before any route.
  // Text over 1 KB goes out compressed; images (not compressible types) and precompressed files as they are.
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'], globalDecompression: false });
  await registerOpenApi(app, API_VERSION);
  await registerLoadShedding(app, deps.config);
  await registerRateLimits(app, deps.config, deps.redis);

  // Auth first, then the one authenticated scope: every product route after it gets its access check.
  await registerAuth(app, deps);
  registerRouteAccess(app);
  const io = await attachRealtime(app, deps.redis);
  const metrics = createApiMetrics(deps.producer, io);
  registerMetrics(app, metrics);
  const ops = createOpsServer({
    logger,
    registry: metrics.registry,
    checks: apiDependencyChecks(deps),
    modes: modes(deps),
  });
  await registerAdminQueues(ops, deps.config, deps.producer, deps.redis);
  app.addHook('onClose', async () => {
    await ops.close();
  });
  const repos = createRepositories(deps.db);
  const publisher = createPublisher(io);
  const announceCredits: CreditsChangedListener =
    deps.onCreditsChanged ?? ((userId, balance) => publisher.emit(userId, 'credits:update', balance));
  // One secret for the zip links the batch reads give and the ones batch.completed sends.
  const archiveLinkSecret = new ArchiveLinkSecret(deps.redis);
  const webhookEvents = new WebhookEvents(repos, deps.store, archiveLinkSecret, (ids) =>
    deps.producer.enqueueWebhookDeliveries(ids),
  );
  const routeDeps: AppDeps = {
    ...deps,
    metrics,
    onCreditsChanged: (userId, balance) => {
      announceCredits(userId, balance);
      // credits.low: recorded beside the answer, never awaited by it; a failure is logged, the reservation stands.
      webhookEvents
        .creditsChanged(userId, balance)
        .catch((err: unknown) => app.log.error({ err, userId }, 'recording a webhook event failed'));
    },
  };
  app.decorate('services', createServices({ ...routeDeps, repos, archiveLinkSecret }));

  // By URL: /api/health, /api/client-config, /api/files, /uploads, /api/dev, /api/auth, /api/users, /api/keys,
  // /api/images, /api/generations, /api/batches, /api/exports, /api/payments, /api/webhooks, /sitemap.xml.
  await app.register(healthRoutes, routeDeps);
  await app.register(clientConfigRoutes, routeDeps);
  await app.register(fileRoutes, routeDeps);
  await app.register(uploadRoutes, routeDeps);
  await app.register(devRoutes, routeDeps);
  await app.register(authRoutes, routeDeps);
  await app.register(userRoutes, routeDeps);
  await app.register(apiKeyRoutes, routeDeps);
  await app.register(imageRoutes, routeDeps);
  await app.register(imageTitleRoutes, routeDeps);
  await app.register(recentGenerationRoutes, routeDeps);
  await app.register(generateShotRoutes, routeDeps);
  await app.register(generationRoutes, routeDeps);
  await app.register(iterateRoutes, routeDeps);
  await app.register(complianceRoutes, routeDeps);
  await app.register(batchRoutes, routeDeps);
  await app.register(exportRoutes, routeDeps);
  await app.register(paymentRoutes, routeDeps);
  await app.register(webhookEndpointRoutes, routeDeps);
  await app.register(stripeWebhookRoutes, routeDeps);
  await app.register(sitemapRoutes, routeDeps);
  await registerWebApp(app, options.webDistDir);
  return { app, ops };
}

function modes(deps: AppDeps): Record<string, string> {
  const { config } = deps;
  return {
    auth: config.auth.mode,
    payments: config.payments.mode,
    imageModel: config.imageModel.kind,
    storage: deps.store.driver,
  };
}
