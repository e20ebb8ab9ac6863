import http from 'node:http';
import type { Redis } from 'ioredis';
import { pingDatabase, type Db } from '@prodshot/db';
import { pingRedis } from '@prodshot/queue';

/** Liveness and readiness for orchestrators: /health answers 200 only while Postgres and Redis answer. */
export function startHealthServer(port: number, host: string, db: Db, redis: Redis): http.Server {
  const server = http.createServer((request, response) => {
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
