import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** ../shared/corpus beside the repository, or null in a clone that does not have it. */
export function corpusDir(sub: 'products' | 'edge-cases' | 'hostile'): string | null {
  const dir = path.resolve(repoRoot, '..', 'shared', 'corpus', sub);
  return existsSync(dir) ? dir : null;
}

export function corpusFiles(sub: 'products' | 'edge-cases' | 'hostile'): string[] {
  const dir = corpusDir(sub);
  if (!dir) return [];
  return readdirSync(dir)
    .filter((name) => !name.startsWith('LICENSE'))
    .sort()
    .map((name) => path.join(dir, name));
}
