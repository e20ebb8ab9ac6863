import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusFiles, corpusFolder, type CorpusKind } from '@prodshot/fixtures';

// The corpus now lives in the repository (@prodshot/fixtures), which new code imports directly.
// These names stay for src/cli, which reads the corpus through them.
export { corpusFiles, corpusFolder };
export type CorpusFolder = CorpusKind;

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

/** The corpus folder: every clone has it now, so this is corpusFolder under its old name. */
export function corpusDir(folder: CorpusFolder): string {
  return corpusFolder(folder);
}
