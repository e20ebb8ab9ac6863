import { createHash, timingSafeEqual } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '@prodshot/config';
import { QUEUE_NAMES, type JobProducer } from '@prodshot/queue';
import { errorBody } from './error-handler.js';

export const ADMIN_QUEUES_PATH = '/admin/queues';
/** Refused credentials an address may send per window before even right ones are refused until it ends. */
export const ADMIN_AUTH_FAILURES_PER_WINDOW = 10;
const ADMIN_AUTH_WINDOW_MS = 15 * 60_000;

/**
 * bull-board for operators at /admin/queues on the ops listener, behind HTTP basic auth with
 * ADMIN_USER and ADMIN_PASSWORD. With no credentials configured nothing is mounted, so the path is
 * a plain 404: a board that can retry and delete jobs is never reachable by accident. Refusals are
 * counted per address in Redis (shared by the replicas): past the limit every attempt gets 429
 * without being checked, so guessing stops paying off.
 */
export async function registerAdminQueues(
  app: FastifyInstance,
  config: Config,
  producer: JobProducer,
  redis: Redis,
): Promise<void> {
  const admin = config.admin;
  if (!admin) return;
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(ADMIN_QUEUES_PATH);
  createBullBoard({
    queues: QUEUE_NAMES.map((name) => new BullMQAdapter(producer.queue(name))),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Prodshot queues' } },
  });
  const expected = { user: digest(admin.user), password: digest(admin.password) };
  await app.register(async (scope) => {
    await scope.register(rateLimit, {
      global: false,
      redis,
      nameSpace: `${config.redis.queuePrefix}:admin-auth:`,
      max: ADMIN_AUTH_FAILURES_PER_WINDOW,
      timeWindow: ADMIN_AUTH_WINDOW_MS,
    });
    const failures = scope.createRateLimit();
    scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      // A peek first: an address over its limit is refused before its credentials are looked at.
      const before = await failures(request, { increment: false });
      if (!before.isAllowed && before.remaining === 0) {
        request.log.warn({ ip: request.ip }, 'admin queues: too many refused credentials');
        return reply
          .status(429)
          .header('retry-after', String(before.ttlInSeconds))
          .send(errorBody(429, 'Too many refused attempts. Please try again later.', 'rate_limited'));
      }
      if (credentialsMatch(request.headers.authorization, expected)) {
        // The board's page runs its own inline bootstrap, which the app-wide policy forbids.
        reply.header(
          'content-security-policy',
          "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
        );
        return;
      }
      request.log.warn({ path: request.url.split('?')[0] }, 'admin queues: credentials refused');
      // A request without credentials is how a browser learns to ask for them, not a guess.
      if (request.headers.authorization) await failures(request);
      return reply
        .status(401)
        .header('www-authenticate', 'Basic realm="prodshot-admin", charset="UTF-8"')
        .send(errorBody(401, 'Operator credentials required', 'admin_unauthorized'));
    });
    await scope.register(serverAdapter.registerPlugin(), { prefix: ADMIN_QUEUES_PATH });
  });
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Compares digests in constant time, so neither the length nor the prefix of a secret leaks through timing. */
function credentialsMatch(header: string | undefined, expected: { user: Buffer; password: Buffer }): boolean {
  if (!header?.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  const userOk = timingSafeEqual(digest(decoded.slice(0, colon)), expected.user);
  const passwordOk = timingSafeEqual(digest(decoded.slice(colon + 1)), expected.password);
  return userOk && passwordOk;
}
