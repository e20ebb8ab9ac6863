import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockfileProblems } from '../lib/lockfile.mjs';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const committedLock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, unknown>;
};
let scratch: string | undefined;

afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** The root and every workspace manifest beside `lock`: all `npm ci` reads before it installs. */
function scratchCopy(lock: typeof committedLock): string {
  scratch = mkdtempSync(path.join(tmpdir(), 'prodshot-lockfile-'));
  const workspaces = Object.keys(lock.packages).filter((key) => key !== '' && !key.includes('node_modules/'));
  for (const dir of ['', ...workspaces]) {
    mkdirSync(path.join(scratch, dir), { recursive: true });
    writeFileSync(path.join(scratch, dir, 'package.json'), readFileSync(path.join(repoRoot, dir, 'package.json')));
  }
  writeFileSync(path.join(scratch, 'package-lock.json'), JSON.stringify(lock, null, 2));
  return scratch;
}

// Each case runs npm (a few seconds, more on a loaded machine).
describe('lockfileProblems', { timeout: 60_000 }, () => {
  it('accepts the committed lockfile', () => {
    expect(lockfileProblems(scratchCopy(committedLock))).toEqual([]);
  });

  it("names the other platforms' packages a lockfile lost, which npm ci refuses", () => {
    const packages = { ...committedLock.packages };
    delete packages['node_modules/@turbo/darwin-arm64'];
    expect(lockfileProblems(scratchCopy({ ...committedLock, packages }))).toEqual([
      expect.stringMatching(/^Missing: @turbo\/darwin-arm64@\S+ from lock file$/),
    ]);
  });

  it('names a package whose engines exclude this Node, as npm ci would warn', () => {
    const key = 'node_modules/@fastify/static/node_modules/content-disposition';
    const entry = committedLock.packages[key] as { version: string };
    const packages = { ...committedLock.packages, [key]: { ...entry, engines: { node: '>=99' } } };
    expect(lockfileProblems(scratchCopy({ ...committedLock, packages }))).toEqual([
      `content-disposition@${entry.version} requires { node: '>=99' } (this is Node ${process.version})`,
    ]);
  });
});
