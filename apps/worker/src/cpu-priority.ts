import { execFileSync } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import type { WorkerCpuPriority } from '@prodshot/config';

type Log = Pick<Logger, 'info' | 'warn'>;

const LOW_NICE = 10;
const LOWEST_NICE = 19;

/**
 * Renders are batch work; accepting a seller's click is not. Where a worker shares a machine with
 * the API and Postgres (`npm start`, compose on one VM), its renders must give way to their requests.
 *
 * - `idle` (Linux): every thread but the main one (the engine threads, the libuv and libvips pools,
 *   V8's helpers) runs under SCHED_IDLE: on CPU time nothing else wants, preempted the moment the
 *   API, Postgres or Redis wakes. Niceness alone does not do that: Linux's EEVDF scheduler lets a
 *   niced render finish its time slice before a woken request runs, a few milliseconds per round
 *   trip, which showed as enqueue p99 spikes. The main thread gets the lowest niceness instead: it
 *   holds database row locks (a credit settlement) and renews job locks, so it must keep a share of
 *   the CPU however busy the machine is, or a starved lock holder would stall the very requests
 *   this is for. Elsewhere `idle` falls back to `low`.
 * - `low`: every thread niced to 10. `normal`: nothing changes.
 *
 * Call once the engine threads are up; threads started later inherit their creator's policy, and a
 * replacement engine thread idles itself (`idleThisThread`).
 */
export function applyCpuPriority(priority: WorkerCpuPriority, log: Log): void {
  if (priority === 'normal') return;
  const threads = os.platform() === 'linux' ? readdirSync('/proc/self/task').map(Number) : [0];
  if (priority === 'idle' && os.platform() === 'linux') {
    const renderThreads = threads.filter((thread) => thread !== process.pid);
    try {
      for (const thread of renderThreads) schedIdle(thread);
      os.setPriority(process.pid, LOWEST_NICE);
      log.info(
        { priority, threads: renderThreads.length, mainThreadNice: LOWEST_NICE },
        'render threads run at idle CPU priority',
      );
      return;
    } catch (error) {
      log.warn(
        { err: error },
        'could not put render threads under SCHED_IDLE (is chrt installed?); renicing them instead',
      );
    }
  }
  try {
    for (const thread of threads) os.setPriority(thread, LOW_NICE);
    log.info({ priority: 'low', nice: LOW_NICE, threads: threads.length }, 'worker threads reniced');
  } catch (error) {
    log.warn({ err: error, priority }, 'could not lower the worker CPU priority; running at the default');
  }
}

/**
 * Puts the calling thread under SCHED_IDLE (an engine thread, which Piscina may start after boot).
 * Linux only; a failure leaves the thread as it was (the main thread's `applyCpuPriority` reports it).
 */
export function idleThisThread(): void {
  if (os.platform() !== 'linux') return;
  try {
    schedIdle(Number(path.basename(readlinkSync('/proc/thread-self'))));
  } catch {
    // Reported once by applyCpuPriority.
  }
}

// Node has no binding for sched_setscheduler; util-linux's chrt (in every Debian image) makes the
// call. Lowering one's own priority needs no privilege.
function schedIdle(thread: number): void {
  execFileSync('chrt', ['--idle', '--pid', '0', String(thread)], { stdio: 'ignore' });
}
