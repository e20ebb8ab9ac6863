import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface WorkerProcess {
  pid: number;
  child: ChildProcess;
  /** Everything it printed, for assertions and for failure messages. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * A real worker process (apps/worker/src/main.ts run from source), configured by `env`: tests
 * kill it with SIGKILL or roll it with SIGTERM like an operator would. Answers once the worker
 * logs `until`: 'worker ready' unless told ('worker starting' is as soon as it handles signals).
 */
export async function startWorkerProcess(
  env: NodeJS.ProcessEnv,
  options: { readyTimeoutMs?: number; until?: string } = {},
): Promise<WorkerProcess> {
  const child = spawn(
    process.execPath,
    ['--conditions=@prodshot/source', '--import', 'tsx', path.join(repoRoot, 'apps/worker/src/main.ts')],
    { cwd: repoRoot, env: { ...process.env, ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  while (!output.includes(options.until ?? 'worker ready')) {
    if (child.exitCode !== null) throw new Error(`worker exited before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`worker was not ready in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    pid: child.pid!,
    child,
    output: () => output,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
