import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

/**
 * Puts this machine's npm cache in the build context as .npm-offline/ (hard links: instant, no
 * copy), for image builds that cannot reach the registry from inside a container: the Dockerfile's
 * `npm-ci` installs the lockfile from it with `npm ci --offline`. `npm test` filled the cache when
 * it installed the same lockfile. Answers a function that removes it again.
 */
export function offlineNpmCache(repoRoot: string): () => void {
  const cache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  const source = path.join(cache, '_cacache');
  if (!existsSync(source))
    throw new Error(`no npm cache at ${source}: run npm ci first, so the image build can install offline`);
  const target = path.join(repoRoot, '.npm-offline');
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target);
  try {
    execFileSync('cp', ['-al', source, path.join(target, '_cacache')], { stdio: 'pipe' });
  } catch {
    // Hard links cannot cross file systems: copy instead.
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target);
    execFileSync('cp', ['-a', source, path.join(target, '_cacache')], { stdio: 'inherit' });
  }
  return () => rmSync(target, { recursive: true, force: true });
}
