import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Files stay small enough to read at once. The limit is a smell to explain, not a rule to game by
// splitting what reads better whole: a source file past it says why in its first lines.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LIMIT = 250;
/** How far down "at its top" reaches: past a licence line or a short module comment. */
const TOP_LINES = 15;
const REASON = /^\s*(\/\/|\/\*\*?|\*)\s*Over 250 lines: \S/;
const SOURCE = /\.(ts|tsx|mjs|js)$/;
/** Tests read as lists of cases; generated files are written by a tool. */
const NOT_SOURCE = /(\.test\.tsx?|\.d\.ts)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.data', '.turbo', 'coverage']);

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : sourceFiles(relative);
    return SOURCE.test(entry.name) && !NOT_SOURCE.test(entry.name) ? [relative] : [];
  });
}

function lines(file: string): string[] {
  return readFileSync(path.join(repoRoot, file), 'utf8').replace(/\n$/, '').split('\n');
}

describe('source file size', () => {
  it(`has every source file over ${LIMIT} lines say at its top why it reads better whole`, () => {
    const files = ['apps', 'packages', 'scripts', 'infra'].flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(100);
    const unexplained = files.filter((file) => {
      const text = lines(file);
      return text.length > LIMIT && !text.slice(0, TOP_LINES).some((line) => REASON.test(line));
    });
    expect(unexplained, `start each with a comment "Over ${LIMIT} lines: <why>", or split it`).toEqual([]);
  });
});
