import { execFile, spawn, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';

const run = promisify(execFile);

/** `docker compose` (v2) where the plugin answers, else Debian's `docker-compose` (v1, no `--wait`). */
function composeCommand(): string[] {
  return spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0
    ? ['docker', 'compose']
    : ['docker-compose'];
}

/** The label every stage of infra/docker/Dockerfile carries. */
const DOCKERFILE_LABEL = 'io.prodshot.dockerfile=infra/docker/Dockerfile';

export interface ComposeStack {
  project: string;
  /** Runs a compose subcommand for this project, its output shown as it comes (builds are long). */
  show(args: string[]): Promise<void>;
  /** Runs a compose subcommand and answers its standard output. */
  read(args: string[]): Promise<string>;
  containers(service: string): Promise<string[]>;
  /** Waits until every container of the project that has a health check reports healthy, and one-shot ones exited 0. */
  waitHealthy(timeoutMs: number): Promise<void>;
  /**
   * Removes the containers, their volumes, the images this project built and the stage images their
   * builds left behind: a test run leaves the machine's disk as it found it (each build leaves
   * gigabytes, and runs on one machine used to fill it).
   */
  down(): Promise<void>;
  /** Images still on the machine that this project built, or stage images a build left dangling. */
  leftImages(): Promise<string[]>;
}

export function composeStack(repoRoot: string, project: string, env: NodeJS.ProcessEnv): ComposeStack {
  const [command, ...base] = composeCommand();
  const args = (rest: string[]) => [...base, '--project-name', project, '--file', 'docker-compose.yml', ...rest];
  const options = { cwd: repoRoot, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 };
  const stack: ComposeStack = {
    project,
    show: (rest) =>
      new Promise((resolve, reject) => {
        const child = spawn(command!, args(rest), { ...options, stdio: ['ignore', 'inherit', 'inherit'] });
        child.once('error', reject);
        child.once('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`${command} ${rest.join(' ')} exited with ${code}`)),
        );
      }),
    read: async (rest) => (await run(command!, args(rest), options)).stdout,
    containers: async (service) => (await stack.read(['ps', '-q', service])).split('\n').filter(Boolean),
    waitHealthy: async (timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const states = await containerStates(
          await stack.read(['ps', '-q', '-a']).then((out) => out.split('\n').filter(Boolean)),
        );
        const failed = states.find((s) => s.exited && s.exitCode !== 0);
        if (failed) throw new Error(`${failed.name} exited with ${failed.exitCode}:\n${await logsTail(failed.id)}`);
        const waiting = states.filter((s) => !s.exited && s.health !== null && s.health !== 'healthy');
        if (states.length > 0 && waiting.length === 0) return;
        if (Date.now() > deadline)
          throw new Error(
            `not healthy after ${timeoutMs / 1000} s: ${waiting.map((s) => `${s.name} (${s.health})`).join(', ')}`,
          );
        await sleep(2000);
      }
    },
    down: async () => {
      await stack.show(['down', '--volumes', '--remove-orphans', '--rmi', 'local', '--timeout', '5']);
      await run('docker', ['image', 'prune', '--force', '--filter', `label=${DOCKERFILE_LABEL}`]);
    },
    leftImages: async () => {
      const images = (filters: string[]) =>
        run('docker', ['images', '--quiet', ...filters.flatMap((f) => ['--filter', f])]).then((r) =>
          r.stdout.split('\n').filter(Boolean),
        );
      return [
        ...(await images([`reference=${project}*`])),
        ...(await images([`label=${DOCKERFILE_LABEL}`, 'dangling=true'])),
      ];
    },
  };
  return stack;
}

interface ContainerState {
  id: string;
  name: string;
  exited: boolean;
  exitCode: number;
  health: string | null;
}

async function containerStates(ids: string[]): Promise<ContainerState[]> {
  if (ids.length === 0) return [];
  const { stdout } = await run('docker', ['inspect', ...ids], { maxBuffer: 16 * 1024 * 1024 });
  const inspected = JSON.parse(stdout) as {
    Id: string;
    Name: string;
    State: { Status: string; ExitCode: number; Health?: { Status: string } };
  }[];
  return inspected.map(({ Id, Name, State }) => ({
    id: Id,
    name: Name.replace(/^\//, ''),
    exited: State.Status === 'exited',
    exitCode: State.ExitCode,
    health: State.Health?.Status ?? null,
  }));
}

export async function logsTail(container: string, lines = 40): Promise<string> {
  const { stdout, stderr } = await run('docker', ['logs', '--tail', String(lines), container], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return `${stdout}${stderr}`;
}

/** A container's whole log, standard output and error together (pino writes JSON lines to stdout). */
export async function logsOf(container: string): Promise<string> {
  const { stdout, stderr } = await run('docker', ['logs', container], { maxBuffer: 64 * 1024 * 1024 });
  return `${stdout}${stderr}`;
}

export async function killContainer(container: string): Promise<void> {
  await run('docker', ['kill', container]);
}
