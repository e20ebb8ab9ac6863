import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describeStartError, runStack } from './run-stack.js';

const IN_OWN_GROUP = 'PRODSHOT_STACK_OWN_GROUP';
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * A terminal's Ctrl-C signals its whole foreground process group: Postgres and Redis would stop at
 * once, under an API and a worker still finishing their work. So the stack runs in a process group
 * of its own and this process hands it each signal; it then stops the services in order.
 */
function runInOwnProcessGroup(): void {
  const stack = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
    detached: true,
    env: { ...process.env, [IN_OWN_GROUP]: '1' },
  });
  for (const signal of FORWARDED_SIGNALS) process.on(signal, () => stack.kill(signal));
  stack.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/** Out of the terminal's group, the stack must still not outlive the process that started it. */
function stopWhenOrphaned(): void {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
  }, 1_000).unref();
}

if (process.env[IN_OWN_GROUP]) {
  stopWhenOrphaned();
  runStack().catch((error: unknown) => {
    console.error(describeStartError(error));
    process.exit(1);
  });
} else {
  runInOwnProcessGroup();
}
