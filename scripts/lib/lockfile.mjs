// Runs before `npm install` has ever happened, so it uses Node's built-ins only.
import { spawnSync } from 'node:child_process';

/**
 * What `npm ci` would say against the lockfile under `dir` on this Node: the packages it refuses
 * as out of sync ("Missing: …", "Invalid: …") and the packages whose `engines` exclude this Node
 * (its EBADENGINE warnings). Empty when a clean install would be silent. A dry run: it resolves
 * from the lockfile and installs nothing, so it takes seconds where a real `npm ci` takes minutes.
 */
export function lockfileProblems(dir) {
  const result = spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (result.error) return [`npm could not run: ${result.error.message}`];
  const lines = result.stderr.split('\n').map((line) => line.replace(/^npm (error|warn)\s*/, '').trim());
  const problems = [...lines.filter((line) => /^(Missing|Invalid):/.test(line)), ...badEngines(lines)];
  if (result.status !== 0 && problems.length === 0) problems.push(lines.filter(Boolean).slice(0, 3).join(' '));
  return problems;
}

/** npm's EBADENGINE warning spans lines: `package: 'name@version'`, then `required: { node: '>=22' }`. */
function badEngines(lines) {
  const found = [];
  let pkg;
  for (const line of lines) {
    const named = /^EBADENGINE\s+package: '(.+)',?$/.exec(line);
    const required = /^EBADENGINE\s+required: (.+?),?$/.exec(line);
    if (named) pkg = named[1];
    else if (required && pkg) found.push(`${pkg} requires ${required[1]} (this is Node ${process.version})`);
  }
  return found;
}
