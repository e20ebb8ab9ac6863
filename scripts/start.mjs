// `npm start`: install what is missing, build, then run the whole product on embedded defaults.
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  checkNodeVersion,
  ensureDependencies,
  ensureSystemCommands,
  fail,
  repoRoot,
  say,
  turbo,
} from './lib/bootstrap.mjs';

checkNodeVersion();
// Variables already in the environment win over .env.
if (existsSync(path.join(repoRoot, '.env'))) process.loadEnvFile(path.join(repoRoot, '.env'));
ensureDependencies();
if (!process.env.REDIS_URL) ensureSystemCommands([{ command: 'redis-server', debianPackage: 'redis-server' }]);
say('building…');
if (turbo(['run', 'build', '--output-logs=errors-only']) !== 0) fail('the build failed; see the errors above');
await import(new URL('./dist/start.js', `file://${repoRoot}/scripts/`).href);
