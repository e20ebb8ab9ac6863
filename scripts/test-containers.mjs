// `npm run test:containers`: the images built with the real Dockerfile and run by docker-compose.yml,
// as an operator runs them. Installs Docker and starts its daemon where they are missing (as
// `npm test` does for redis-server), builds the offline stand-ins of the base images where they are
// absent, then runs scripts/src/containers/run-container-test.ts. Ends with one summary line.
import { checkNodeVersion, ensureDependencies, fail, repoRoot, run, say, turbo } from './lib/bootstrap.mjs';
import { ensureDocker } from './lib/docker.mjs';
import { ensureStandins } from './lib/standins.mjs';
import path from 'node:path';

checkNodeVersion();
ensureDependencies();
const docker = await ensureDocker();
let status;
try {
  ensureStandins();
  say('building the container test…');
  if (turbo(['run', 'build', '--filter=@prodshot/scripts...', '--output-logs=errors-only']) !== 0) fail('build failed');
  status = run(process.execPath, [path.join(repoRoot, 'scripts/dist/containers/run-container-test.js')]);
} finally {
  await docker.stop();
}
process.exit(status);
