// `npm run containers:standins [-- --force] [-- image…]`: builds offline stand-ins for the official
// images that are missing locally (scripts/lib/standins.mjs), starting a Docker daemon if none answers.
import { checkNodeVersion, say } from './lib/bootstrap.mjs';
import { ensureDocker, docker } from './lib/docker.mjs';
import { ensureStandins, standinImages } from './lib/standins.mjs';

checkNodeVersion();
const args = process.argv.slice(2);
if (args.includes('--help')) {
  say(`usage: npm run containers:standins -- [--force] [image…]; images: ${standinImages().join(', ')}`);
  process.exit(0);
}
const force = args.includes('--force');
const only = args.filter((arg) => !arg.startsWith('--'));

// The daemon stays up when this started it: the images are for the tests and compose that follow.
await ensureDocker();
const results = ensureStandins({ force, only });
for (const { image, built, seconds, standin } of results) {
  const size = docker(['image', 'inspect', '--format', '{{.Size}}', image]).stdout;
  const mb = size ? `${Math.round(Number(size) / 1e6)} MB` : '?';
  const what = standin ? `${standin}` : 'not a stand-in (left as it was)';
  say(`${image}: ${built ? `built in ${seconds} s` : 'present'}, ${mb}; ${what}`);
}
