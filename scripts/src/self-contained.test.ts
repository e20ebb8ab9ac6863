import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// A clone of the public repository has nothing beside it: every test, bench and script input lives
// in packages/fixtures. A path to the team's shared folder beside the repository works on our
// machines and fails (or skips) in every other clone, so no file outside the docs may name it.

const repoRoot = path.resolve(import.meta.dirname, '../..');

// Built from pieces so that this file, which is scanned too, does not name the folder itself.
const parent = ['.', '.'].join('');
const folder = ['sha', 'red'].join('');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The folder as a path (`<parent>/<folder>`, either slash) or as path segments (`'<parent>', '<folder>'`, as path.resolve takes them). */
const OUTSIDE = new RegExp(
  `${escape(parent)}[/\\\\]${folder}(?![\\w-]|\\.\\w)|['"\`]${escape(parent)}['"\`]\\s*,\\s*['"\`]${folder}['"\`]`,
);

const isDocs = (file: string) => file.endsWith('.md') || file.startsWith('docs/');

/** Files git tracks or would add (new, not ignored), as paths from the repository root; ones deleted from the work tree left out. */
function repositoryFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\0')
    .filter((file) => file !== '' && existsSync(path.join(repoRoot, file)));
}

describe('the repository is self-contained', () => {
  it('names the folder beside the repository nowhere but in the docs', () => {
    const files = repositoryFiles().filter((file) => !isDocs(file));
    // An empty or partial listing would pass for the wrong reason.
    expect(files).toContain('scripts/src/self-contained.test.ts');
    expect(files).toContain('packages/fixtures/src/index.ts');
    const offenders = files.filter((file) => OUTSIDE.test(readFileSync(path.join(repoRoot, file), 'latin1')));
    expect(offenders).toEqual([]);
  });

  it('recognises the folder named as a path or as path segments, and not other uses of the word', () => {
    const named = [
      `${parent}/${folder}/corpus`,
      `beside it (${parent}/${folder}).`,
      `"${parent}/${folder}"`,
      `${parent}\\${folder}\\corpus`,
      `path.resolve(root, '${parent}', '${folder}', 'corpus')`,
      `join(root, "${parent}", "${folder}")`,
    ];
    for (const text of named) expect(OUTSIDE.test(text), text).toBe(true);
    const unrelated = [
      `@clerk/${folder}/keys`,
      `the ${folder} step failed`,
      `${parent}/${folder}-keys.js`,
      `${parent}/${folder}.js`,
      `'${parent}', '${folder}Config'`,
    ];
    for (const text of unrelated) expect(OUTSIDE.test(text), text).toBe(false);
  });
});
