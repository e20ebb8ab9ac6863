import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Runs lowerCpuPriority in a fresh Node process with a worker thread, and reads back every thread's niceness. */
function nicenessAfter(nice: number): number[] {
  const script = `
    import { Worker } from 'node:worker_threads';
    import { readdirSync, readFileSync } from 'node:fs';
    import { lowerCpuPriority } from ${JSON.stringify(path.join(here, 'cpu-priority.ts'))};
    const thread = new Worker('setInterval(() => {}, 1000)', { eval: true });
    await new Promise((resolve) => thread.once('online', resolve));
    lowerCpuPriority(${nice}, { info() {}, warn(fields) { throw fields.err; } });
    const niceOf = (tid) => Number(readFileSync('/proc/self/task/' + tid + '/stat', 'utf8').split(') ')[1].split(' ')[16]);
    console.log(JSON.stringify(readdirSync('/proc/self/task').map(niceOf)));
    process.exit(0);
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!) as number[];
}

describe.runIf(process.platform === 'linux')('lowerCpuPriority', () => {
  it('renices every thread of the worker process, worker threads included', () => {
    const niceness = nicenessAfter(7);
    expect(niceness.length).toBeGreaterThan(2);
    expect(new Set(niceness)).toEqual(new Set([7]));
  });

  it('leaves the process alone when the niceness is 0', () => {
    expect(new Set(nicenessAfter(0))).toEqual(new Set([0]));
  });
});
