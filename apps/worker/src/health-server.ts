import http from 'node:http';
import type { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import { pingDatabase, type Db } from '@prodshot/db';
import { pingRedis } from '@prodshot/queue';

/**
 * /health (200 only while Postgres and Redis answer and the worker could load its cutout model)
 * and /metrics (Prometheus) for orchestrators. `unfit` is why this worker takes no jobs.
 */
export function startHealthServer(port: number, host: string, db: Db, redis: Redis, registry: Registry | null, unfit?: string): http.Server {
  const server = http.createServer((request, response) => {
    if (request.url === '/health' && unfit) {
      response.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'error', error: unfit }));
      return;
    }
    if (request.url === '/metrics' && registry) {
      registry
        .metrics()
        .then((body) => response.writeHead(200, { 'content-type': registry.contentType }).end(body))
        .catch((error: Error) => response.writeHead(500).end(error.message));
      return;
    }
    if (request.url !== '/health') {
      response.writeHead(404).end();
      return;
    }
    Promise.all([pingDatabase(db), pingRedis(redis)])
      .then(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'))
      .catch((error: Error) =>
        response.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'error', error: error.message })),
      );
  });
  server.listen(port, host);
  return server;
}
