import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type CorpusFolder = 'products' | 'edge-cases' | 'hostile';

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

/** ../shared/corpus/<folder> relative to the repo root (read in place, never copied), whether or not this clone has it. */
export function corpusFolder(folder: CorpusFolder): string {
  return resolve(repoRoot(), '..', 'shared', 'corpus', folder);
}

/** The corpus folder, or null in a clone that does not have it (tests that need it skip). */
export function corpusDir(folder: CorpusFolder): string | null {
  const dir = corpusFolder(folder);
  return existsSync(dir) ? dir : null;
}

/** Image files of a corpus folder (licence texts left out), sorted; none when the folder is absent. */
export function corpusFiles(folder: CorpusFolder): string[] {
  const dir = corpusDir(folder);
  if (!dir) return [];
  return readdirSync(dir)
    .filter((name) => !name.startsWith('LICENSE') && !name.endsWith('.md'))
    .sort()
    .map((name) => join(dir, name));
}
