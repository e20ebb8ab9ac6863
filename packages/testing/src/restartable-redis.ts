import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, startEmbeddedRedis, type RunningRedis } from '@prodshot/embedded';

/**
 * A Redis of the test's own, which it stops and starts again on the same port and data as an
 * outage would: the connections made to it see Redis refuse, then come back.
 */
export interface RestartableRedis {
  readonly url: string;
  stop(): Promise<void>;
  restart(): Promise<void>;
  /** Stops it for good and removes its data. */
  close(): Promise<void>;
}

export async function startRestartableRedis(): Promise<RestartableRedis> {
  const dir = await mkdtemp(path.join(tmpdir(), 'prodshot-redis-outage-'));
  const options = { dataDir: path.join(dir, 'redis'), port: await freePort() };
  let running: RunningRedis | null = await startEmbeddedRedis(options);
  const url = running.url;
  const stop = async () => {
    await running?.stop();
    running = null;
  };
  return {
    url,
    stop,
    restart: async () => {
      running ??= await startEmbeddedRedis(options);
    },
    close: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
