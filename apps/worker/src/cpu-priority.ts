import { readdirSync } from 'node:fs';
import os from 'node:os';
import type { Logger } from 'pino';

/**
 * Renders are batch work; accepting a seller's click is not. Where a worker shares a machine with
 * the API and Postgres (`npm start`, a small VM), a niced worker lets their requests cut in. Linux
 * keeps niceness per thread, so every thread of this process is reniced (threads started later
 * inherit it); elsewhere the calling thread is.
 */
export function lowerCpuPriority(nice: number, log: Pick<Logger, 'info' | 'warn'>): void {
  if (nice === 0) return;
  try {
    const threads = os.platform() === 'linux' ? readdirSync('/proc/self/task').map(Number) : [0];
    for (const thread of threads) os.setPriority(thread, nice);
    log.info({ nice, threads: threads.length }, 'worker threads reniced');
  } catch (error) {
    log.warn({ err: error, nice }, 'could not lower the worker CPU priority; running at the default');
  }
}
