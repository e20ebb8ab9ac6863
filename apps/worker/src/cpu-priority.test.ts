import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { WorkerCpuPriority } from '@prodshot/config';

const here = path.dirname(fileURLToPath(import.meta.url));
const SCHED_OTHER = 0;
const SCHED_IDLE = 5;

interface ThreadState {
  main: boolean;
  nice: number;
  policy: number;
}

/**
 * Runs `body` in a fresh Node process that has a worker thread running, then reads back every
 * thread's niceness and scheduling policy from /proc.
 */
function threadsAfter(body: string): ThreadState[] {
  const script = `
    import { Worker } from 'node:worker_threads';
    import { readdirSync, readFileSync } from 'node:fs';
    import { applyCpuPriority, idleThisThread } from ${JSON.stringify(path.join(here, 'cpu-priority.ts'))};
    const log = { info() {}, warn(fields) { throw fields.err; } };
    const thread = new Worker('setInterval(() => {}, 1000)', { eval: true });
    await new Promise((resolve) => thread.once('online', resolve));
    ${body}
    const state = (tid) => {
      const fields = readFileSync('/proc/self/task/' + tid + '/stat', 'utf8').split(') ')[1].split(' ');
      return { main: Number(tid) === process.pid, nice: Number(fields[16]), policy: Number(fields[38]) };
    };
    console.log(JSON.stringify(readdirSync('/proc/self/task').map(state)));
    process.exit(0);
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop()!) as ThreadState[];
}

const applied = (priority: WorkerCpuPriority) => threadsAfter(`applyCpuPriority('${priority}', log);`);

describe.runIf(process.platform === 'linux')('applyCpuPriority', () => {
  it('idle: every thread but the main one runs under SCHED_IDLE; the main thread keeps a share, at niceness 19', () => {
    const threads = applied('idle');
    const others = threads.filter((t) => !t.main);
    expect(others.length).toBeGreaterThan(2);
    expect(new Set(others.map((t) => t.policy))).toEqual(new Set([SCHED_IDLE]));
    expect(threads.find((t) => t.main)).toEqual({ main: true, nice: 19, policy: SCHED_OTHER });
  });

  it('low: every thread is niced to 10', () => {
    const threads = applied('low');
    expect(new Set(threads.map((t) => `${t.nice}/${t.policy}`))).toEqual(new Set([`10/${SCHED_OTHER}`]));
  });

  it('normal: leaves the process alone', () => {
    const threads = applied('normal');
    expect(new Set(threads.map((t) => `${t.nice}/${t.policy}`))).toEqual(new Set([`0/${SCHED_OTHER}`]));
  });

  it('an engine thread started later idles itself and nothing else', () => {
    const threads = threadsAfter(`
      const engine = new Worker(${JSON.stringify(`
        import { parentPort } from 'node:worker_threads';
        import { tsImport } from 'tsx/esm/api';
        const { idleThisThread } = await tsImport(${JSON.stringify(path.join(here, 'cpu-priority.ts'))}, ${JSON.stringify(import.meta.url)});
        idleThisThread();
        parentPort.postMessage('idle');
        setInterval(() => {}, 1000);
      `)}, { eval: true });
      await new Promise((resolve) => engine.once('message', resolve));
    `);
    expect(threads.filter((t) => t.policy === SCHED_IDLE)).toHaveLength(1);
    expect(threads.find((t) => t.main)?.policy).toBe(SCHED_OTHER);
  });
});
