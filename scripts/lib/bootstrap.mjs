// Runs before `npm install` has ever happened, so it uses Node's built-ins only.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function say(message) {
  console.log(`[prodshot] ${message}`);
}

export function fail(message) {
  console.error(`[prodshot] ${message}`);
  process.exit(1);
}

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', ...options });
  if (result.error) fail(`${command} could not run: ${result.error.message}`);
  return result.status ?? 1;
}

export function runOrFail(command, args, options = {}) {
  const status = run(command, args, options);
  if (status !== 0) fail(`\`${[command, ...args].join(' ')}\` failed with exit code ${status}`);
}

export function checkNodeVersion() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) fail(`Node.js ≥ 20.19 is required (this is ${process.version}).`);
}

/**
 * Installs from the lockfile when node_modules is missing or older than it. `npm install` rather
 * than `npm ci`: it adds what the lockfile changed instead of reinstalling everything (`npm test`
 * checks first that `npm ci` would accept the lockfile, see lockfile.mjs).
 */
export function ensureDependencies() {
  const installed = path.join(repoRoot, 'node_modules', '.package-lock.json');
  const lock = path.join(repoRoot, 'package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  say('installing dependencies (npm install from package-lock.json)…');
  runOrFail('npm', ['install', '--no-audit', '--no-fund']);
}

export function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Installs Debian packages that provide missing commands, when this user may (root with apt-get);
 * otherwise stops with the exact command to run.
 */
export function ensureSystemCommands(needed) {
  const missing = needed.filter(({ command }) => !hasCommand(command));
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((m) => m.debianPackage))];
  const canInstall =
    process.getuid?.() === 0 && hasCommand('apt-get') && process.env.PRODSHOT_NO_SYSTEM_INSTALL !== '1';
  if (!canInstall) {
    fail(
      `missing ${missing.map((m) => m.command).join(', ')}. Install with: sudo apt-get install -y ${packages.join(' ')} ` +
        '(or set REDIS_URL to a running Redis).',
    );
  }
  say(`installing ${packages.join(', ')} from Debian's packages…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  runOrFail('apt-get', ['update', '-qq'], { env });
  runOrFail('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { env });
}

export function turbo(args) {
  return run(path.join(repoRoot, 'node_modules', '.bin', 'turbo'), args, {
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
  });
}
