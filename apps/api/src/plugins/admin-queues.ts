import { createHash, timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '@prodshot/config';
import { QUEUE_NAMES, type JobProducer } from '@prodshot/queue';
import { errorBody } from './error-handler.js';

export const ADMIN_QUEUES_PATH = '/admin/queues';

/**
 * bull-board for operators at /admin/queues, behind HTTP basic auth with ADMIN_USER and
 * ADMIN_PASSWORD. With no credentials configured nothing is mounted, so the path is a plain 404:
 * a board that can retry and delete jobs is never reachable by accident.
 */
export async function registerAdminQueues(app: FastifyInstance, config: Config, producer: JobProducer): Promise<void> {
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
    scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (credentialsMatch(request.headers.authorization, expected)) {
        // The board's page runs its own inline bootstrap, which the app-wide policy forbids.
        reply.header('content-security-policy', "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'");
        return;
      }
      request.log.warn({ path: request.url.split('?')[0] }, 'admin queues: credentials refused');
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
