import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The monorepo root: the nearest ancestor whose package.json declares workspaces. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && 'workspaces' in (JSON.parse(readFileSync(manifest, 'utf8')) as object)) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the monorepo root (a package.json with workspaces)');
    dir = parent;
  }
}

/** ../shared/corpus/<folder> relative to the repo root (read in place, never copied). */
export function corpusFolder(folder: 'products' | 'edge-cases' | 'hostile'): string {
  return resolve(repoRoot(), '..', 'shared', 'corpus', folder);
}

/** Image files of a corpus folder (licence texts left out), or null when the folder is absent. */
export function corpusFiles(folder: 'products' | 'edge-cases' | 'hostile'): string[] | null {
  const dir = corpusFolder(folder);
  if (!existsSync(dir)) return null;
  return readdirSync(dir)
    .filter((name) => !name.startsWith('LICENSE') && !name.endsWith('.md'))
    .sort()
    .map((name) => join(dir, name));
}
