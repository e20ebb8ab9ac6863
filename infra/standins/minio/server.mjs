// Over 250 lines: the MinIO stand-in's front is one server: SigV4, users and policies, health and the admin API
// share its request handling.
// Stand-in for `minio server`: s3rver (an S3-compatible server from npm) behind a front of our own
// that does what MinIO does and s3rver does not: SigV4 signatures checked against the root user
// and the users `mc admin user add` made, those users confined by the policies attached to them
// (policy.mjs), MinIO's health endpoints, and a small admin API for the stand-in mc. What it does
// not emulate is printed at start and listed in the image's label.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { permits, requestAction } from './policy.mjs';
import { verifyRequest } from './sigv4.mjs';

const require = createRequire(import.meta.url);
const S3rver = require('s3rver');
// s3rver looks V4 access keys up in this registry (it checks no V4 signature itself).
const AWSAccount = require('s3rver/lib/models/account');

const LIMITS = [
  'user policies are a subset of IAM: Allow/Deny on Action and Resource with * and ? wildcards; statements with a Condition never allow (and always deny); multi-object delete is checked against bucket/* as a whole; no bucket (anonymous) policies, groups or service accounts',
  'the request body is not checked against x-amz-content-sha256 (the signature over the declared hash is)',
  'no console (--console-address is accepted and ignored), no versioning, lifecycle, replication, encryption, object lock or notifications',
  "the admin API is a small JSON one that only the stand-in mc speaks, not MinIO's encrypted madmin API",
];

function usage(message) {
  console.error(`minio (stand-in): ${message}\nUsage: minio server [--address :9000] [--console-address :9001] DIR`);
  process.exit(1);
}

function parseArgs(argv) {
  const [command, ...rest] = argv;
  if (command === '--version' || command === 'version') {
    console.log('minio version standin (s3rver behind a SigV4-checking front; not MinIO)');
    process.exit(0);
  }
  if (command !== 'server') usage(`unknown command ${command ?? '(none)'}`);
  const options = { address: ':9000', dirs: [] };
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i];
    const [flag, inline] = arg.split(/=(.*)/s);
    if (flag === '--address' || flag === '--console-address') {
      const value = inline ?? rest[++i];
      if (flag === '--address') options.address = value;
    } else if (arg.startsWith('--')) {
      console.warn(`minio (stand-in): ignoring ${arg}`);
    } else {
      options.dirs.push(arg);
    }
  }
  if (options.dirs.length !== 1) usage('exactly one data folder is supported');
  return options;
}

function listenTarget(address) {
  const at = address.lastIndexOf(':');
  return { host: address.slice(0, at) || '0.0.0.0', port: Number(address.slice(at + 1)) };
}

const options = parseArgs(process.argv.slice(2));
const dataDir = path.resolve(options.dirs[0]);
const rootUser = process.env.MINIO_ROOT_USER ?? process.env.MINIO_ACCESS_KEY ?? 'minioadmin';
const rootPassword = process.env.MINIO_ROOT_PASSWORD ?? process.env.MINIO_SECRET_KEY ?? 'minioadmin';
if (rootUser.length < 3 || rootPassword.length < 8) {
  // As MinIO refuses to start with credentials this short.
  console.error('minio (stand-in): MINIO_ROOT_USER must be at least 3 and MINIO_ROOT_PASSWORD at least 8 characters');
  process.exit(1);
}

// Admin state beside the buckets, in the same volume, so users survive a restart.
const bucketsDir = path.join(dataDir, 'buckets');
const adminFile = path.join(dataDir, 'standin-admin.json');
mkdirSync(bucketsDir, { recursive: true });
const admin = loadAdmin();

function loadAdmin() {
  try {
    return JSON.parse(readFileSync(adminFile, 'utf8'));
  } catch {
    return { users: {}, policies: {}, attachments: {} };
  }
}

function saveAdmin() {
  writeFileSync(`${adminFile}.tmp`, JSON.stringify(admin, null, 2));
  renameSync(`${adminFile}.tmp`, adminFile);
  registerKeys();
}

function registerKeys() {
  for (const key of [...AWSAccount.registry.keys()]) AWSAccount.DUMMY_ACCOUNT.revokeAccessKey(key);
  AWSAccount.DUMMY_ACCOUNT.createKeyPair(rootUser, rootPassword);
  for (const [accessKey, user] of Object.entries(admin.users)) {
    if (user.status !== 'disabled') AWSAccount.DUMMY_ACCOUNT.createKeyPair(accessKey, user.secretKey);
  }
}

function secretFor(accessKey) {
  if (accessKey === rootUser) return rootPassword;
  const user = admin.users[accessKey];
  return user && user.status !== 'disabled' ? user.secretKey : undefined;
}

const s3 = new S3rver({
  directory: bucketsDir,
  silent: true,
  // Otherwise a Host header that is a name (compose's "minio") is taken for a bucket.
  vhostBuckets: false,
  allowMismatchedSignatures: false,
});
const s3Handler = s3.callback();

function xmlError(res, status, code, message, resource) {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message><Resource>${escapeXml(resource)}</Resource><RequestId>standin</RequestId></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function escapeXml(text) {
  return String(text).replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function json(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const ADMIN_PREFIX = '/minio/admin/v3/standin/';

async function handleAdmin(req, res, pathname, query) {
  const action = pathname.slice(ADMIN_PREFIX.length);
  const body = req.method === 'PUT' || req.method === 'POST' ? await readBody(req) : '';
  const input = body ? JSON.parse(body) : {};
  switch (action) {
    case 'add-user': {
      const { accessKey, secretKey } = input;
      if (!accessKey || !secretKey || secretKey.length < 8)
        return json(res, 400, { error: 'accessKey and a secretKey of at least 8 characters are required' });
      if (accessKey === rootUser) return json(res, 400, { error: 'the root user cannot be added' });
      admin.users[accessKey] = { secretKey, status: 'enabled' };
      saveAdmin();
      console.log(`admin: user ${accessKey} added`);
      return json(res, 200, { ok: true });
    }
    case 'remove-user': {
      delete admin.users[input.accessKey];
      delete admin.attachments[input.accessKey];
      saveAdmin();
      return json(res, 200, { ok: true });
    }
    case 'list-users':
      return json(
        res,
        200,
        Object.fromEntries(
          Object.entries(admin.users).map(([key, user]) => [
            key,
            { status: user.status, policies: admin.attachments[key] ?? [] },
          ]),
        ),
      );
    case 'add-policy': {
      const { name, policy } = input;
      if (!name || typeof policy !== 'object' || !policy?.Statement)
        return json(res, 400, { error: 'name and a policy document with a Statement are required' });
      admin.policies[name] = policy;
      saveAdmin();
      console.log(`admin: policy ${name} stored`);
      return json(res, 200, { ok: true });
    }
    case 'list-policies':
      return json(res, 200, admin.policies);
    case 'attach-policy': {
      const { user, policies } = input;
      if (!admin.users[user]) return json(res, 404, { error: `no user ${user}` });
      const missing = policies.filter((name) => !admin.policies[name]);
      if (missing.length) return json(res, 404, { error: `no policy ${missing.join(', ')}` });
      admin.attachments[user] = [...new Set([...(admin.attachments[user] ?? []), ...policies])];
      saveAdmin();
      console.log(`admin: ${policies.join(', ')} attached to ${user}`);
      return json(res, 200, { ok: true, attached: admin.attachments[user] });
    }
    case 'info':
      return json(res, 200, {
        mode: 'online',
        standin: true,
        limits: LIMITS,
        users: Object.keys(admin.users).length,
        query,
      });
    default:
      return json(res, 404, { error: `unknown admin call ${action}` });
  }
}

const server = http.createServer(async (req, res) => {
  try {
    const url = req.url ?? '/';
    const [pathname, rawQuery = ''] = url.split(/\?(.*)/s);
    // MinIO's health probes answer without credentials.
    if (pathname.startsWith('/minio/health/')) {
      const known = [
        '/minio/health/live',
        '/minio/health/ready',
        '/minio/health/cluster',
        '/minio/health/cluster/read',
      ];
      res.writeHead(known.includes(pathname) ? 200 : 404, { 'content-length': 0 });
      return res.end();
    }
    const check = verifyRequest({ method: req.method, url, headers: req.headers }, secretFor);
    if (!check.ok) return xmlError(res, 403, check.code, check.message, pathname);
    if (pathname.startsWith('/minio/admin/')) {
      if (check.accessKey !== rootUser) return json(res, 403, { error: 'admin calls need the root user' });
      if (!pathname.startsWith(ADMIN_PREFIX))
        return json(res, 501, { error: "this stand-in speaks only the stand-in mc's admin calls" });
      return await handleAdmin(req, res, pathname, Object.fromEntries(new URLSearchParams(rawQuery)));
    }
    if (check.accessKey !== rootUser) {
      const policies = (admin.attachments[check.accessKey] ?? []).map((name) => admin.policies[name]).filter(Boolean);
      const request = requestAction(
        req.method,
        pathname,
        Object.fromEntries(new URLSearchParams(rawQuery)),
        req.headers,
      );
      if (!permits(policies, request))
        return xmlError(
          res,
          403,
          'AccessDenied',
          `Access Denied. (${request.action} on ${request.resource})`,
          pathname,
        );
    }
    return s3Handler(req, res);
  } catch (error) {
    console.error(error);
    if (!res.headersSent) xmlError(res, 500, 'InternalError', error.message, req.url ?? '/');
    else res.destroy();
  }
});

registerKeys();
const { host, port } = listenTarget(options.address);
server.listen(port, host, () => {
  console.log(
    `MinIO stand-in (s3rver ${require('s3rver/package.json').version} behind a SigV4-checking front; NOT MinIO)`,
  );
  console.log(`API: http://${host}:${port}  data: ${bucketsDir}  root user: ${rootUser}`);
  console.log(
    'Checks SigV4 signatures (header and presigned) against the root user and users added with `mc admin user add`, and those users against their attached policies.',
  );
  for (const limit of LIMITS) console.log(`Not emulated: ${limit}`);
});

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
