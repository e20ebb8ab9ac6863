// Docker for the container tests and the stand-in images. Node built-ins only, like bootstrap.mjs:
// it runs before anything is built.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureSystemCommands, fail, hasCommand, say } from './bootstrap.mjs';

/** Runs docker with the given arguments and returns { status, stdout, stderr } (text, trimmed). */
export function docker(args, options = {}) {
  const result = spawnSync('docker', args, { encoding: 'utf8', ...options });
  if (result.error) return { status: 1, stdout: '', stderr: result.error.message };
  return { status: result.status ?? 1, stdout: (result.stdout ?? '').trim(), stderr: (result.stderr ?? '').trim() };
}

/** True when a daemon answers `docker info` within a few seconds. */
export function dockerAnswers() {
  if (!hasCommand('docker')) return false;
  return docker(['info', '--format', '{{.ServerVersion}}'], { timeout: 15_000 }).status === 0;
}

/** Where dockerd is: root's PATH may lack /usr/sbin, where Debian puts it. */
function dockerdPath() {
  return ['dockerd', '/usr/sbin/dockerd', '/usr/bin/dockerd'].find((candidate) => hasCommand(candidate));
}

/** True when `docker compose` (the v2 plugin) answers; otherwise docker-compose v1 is what there is. */
function composePluginAnswers() {
  return docker(['compose', 'version'], { timeout: 15_000 }).status === 0;
}

export function imageExists(image) {
  return docker(['image', 'inspect', '--format', '{{.Id}}', image]).status === 0;
}

/** A label of a local image, or undefined when the image or the label is missing. */
export function imageLabel(image, label) {
  const result = docker(['image', 'inspect', '--format', `{{index .Config.Labels "${label}"}}`, image]);
  if (result.status !== 0 || result.stdout === '' || result.stdout === '<no value>') return undefined;
  return result.stdout;
}

/**
 * Makes sure a Docker daemon answers, installing what is missing first: Debian's docker.io (and
 * docker-compose where no `docker compose` plugin answers) through ensureSystemCommands, then, when
 * no daemon answers and this is root, `dockerd` in the background with its log under the OS temp
 * dir. Returns { started, logFile, stop() }: stop() ends only a daemon this call started (by its
 * PID) and does nothing otherwise, so a daemon someone else runs is never touched.
 */
export async function ensureDocker({ timeoutMs = 60_000 } = {}) {
  const answering = dockerAnswers();
  // A docker client alone (this machine kind ships one in /usr/local/bin) starts no daemon: dockerd comes with docker.io.
  if (!answering && !dockerdPath()) ensureSystemCommands([{ command: 'dockerd', debianPackage: 'docker.io' }]);
  if (!composePluginAnswers()) ensureSystemCommands([{ command: 'docker-compose', debianPackage: 'docker-compose' }]);
  const notStarted = { started: false, logFile: undefined, stop: async () => {} };
  if (answering) return notStarted;

  if (process.getuid?.() !== 0) {
    fail(
      'no Docker daemon answers and this is not root, so none can be started here. Start one (sudo systemctl start docker) or run as root.',
    );
  }
  const dockerd = dockerdPath() ?? fail('dockerd is still missing after installing docker.io');
  const logFile = path.join(tmpdir(), `prodshot-dockerd-${Date.now()}.log`);
  const log = openSync(logFile, 'a');
  say(`no Docker daemon answers: starting dockerd (log: ${logFile})…`);
  // Detached in its own process group so a Ctrl-C meant for the tests does not take it down halfway.
  const child = spawn(dockerd, [], { detached: true, stdio: ['ignore', log, log] });
  closeSync(log);
  let exited = false;
  child.on('exit', () => (exited = true));
  child.unref();

  const deadline = Date.now() + timeoutMs;
  while (!dockerAnswers()) {
    if (exited) fail(`dockerd exited before it answered; see ${logFile}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      fail(`dockerd did not answer \`docker info\` within ${timeoutMs / 1000} s; see ${logFile}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  say(`dockerd answers (pid ${child.pid})`);
  return {
    started: true,
    logFile,
    stop: async () => {
      if (exited) return;
      // SIGTERM lets dockerd stop its containers and release its socket and pid file cleanly.
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 20_000))]);
    },
  };
}
