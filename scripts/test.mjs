// `npm test`: install what is missing, then the format check, lint, typecheck, build, unit, web, integration and e2e tests.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  checkNodeVersion,
  ensureDependencies,
  ensureSystemCommands,
  fail,
  repoRoot,
  run,
  say,
  turbo,
} from './lib/bootstrap.mjs';
import { lockfileProblems } from './lib/lockfile.mjs';

checkNodeVersion();
// Before installing, which would quietly repair the lockfile here: CI and the Docker build run `npm ci` on the committed one.
say('checking package-lock.json against npm ci…');
const lockProblems = lockfileProblems(repoRoot);
if (lockProblems.length > 0) {
  fail(
    `npm ci would not install cleanly from package-lock.json: ${lockProblems.join('; ')}. ` +
      'Fix: `npm install --package-lock-only` and commit package-lock.json; hold back a package that wants a newer Node with `overrides` in package.json.',
  );
}
ensureDependencies();
ensureSystemCommands([
  { command: 'redis-server', debianPackage: 'redis-server' },
  // The web e2e tests drive Debian's Chromium through playwright-core.
  { command: 'chromium', debianPackage: 'chromium' },
]);

say('format check (Prettier; `npm run format` fixes it)…');
if (run(path.join(repoRoot, 'node_modules', '.bin', 'prettier'), ['--check', '.', '--log-level', 'warn']) !== 0) {
  fail('files are not formatted: run `npm run format` and commit the result');
}

say('lint, typecheck and build…');
if (turbo(['run', 'lint', 'typecheck', 'build', '--output-logs=errors-only']) !== 0)
  fail('lint, typecheck or build failed');

const reports = mkdtempSync(path.join(tmpdir(), 'prodshot-test-report-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedProjects = 0;
// e2e last: it drives the built stack in Chromium, the slowest and broadest check.
for (const project of ['unit', 'web', 'integration', 'e2e']) {
  say(`${project} tests…`);
  const report = path.join(reports, `${project}.json`);
  const status = run(path.join(repoRoot, 'node_modules', '.bin', 'vitest'), [
    'run',
    '--project',
    project,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
  if (status !== 0) failedProjects += 1;
  addTotals(report);
}

// The plain closing line CI reads, for every project together.
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (failedProjects > 0 || totals.failed > 0) process.exit(1);

function addTotals(report) {
  try {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += json.numPassedTests ?? 0;
    totals.failed += json.numFailedTests ?? 0;
    totals.skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  } catch {
    totals.failed += 1;
  }
}
