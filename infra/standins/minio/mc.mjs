// Stand-in for MinIO's `mc`, in Node: the S3 calls go through the real `minio` npm client, so they
// work against any S3 endpoint (the stand-in server or a real MinIO); the admin calls speak the
// stand-in server's small JSON admin API, so they work against the stand-in server only.
// Supported: alias set|rm|ls, ready, mb [--ignore-existing|-p], rb [--force], ls,
// admin user add|rm|ls, admin policy create|attach|ls, admin info.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { Client } from 'minio';
import { signRequest } from './sigv4.mjs';

const configDir = process.env.MC_CONFIG_DIR ?? path.join(homedir(), '.mc');
const configFile = path.join(configDir, 'config.json');
// As mc's own first config: `local` names the server on this host, which `mc ready local` probes.
const DEFAULT_ALIASES = {
  local: { url: 'http://localhost:9000', accessKey: '', secretKey: '', api: 'S3v4', path: 'auto' },
};

function die(message, code = 1) {
  console.error(`mc: <ERROR> ${message}`);
  process.exit(code);
}

function loadConfig() {
  if (!existsSync(configFile)) return { version: '10', aliases: { ...DEFAULT_ALIASES } };
  return JSON.parse(readFileSync(configFile, 'utf8'));
}

function saveConfig(config) {
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
}

/** An alias from MC_HOST_<alias> (http://user:secret@host:port, as mc reads it) or the config file. */
function alias(name) {
  const fromEnv = process.env[`MC_HOST_${name}`];
  if (fromEnv) {
    const url = new URL(fromEnv);
    return {
      url: `${url.protocol}//${url.host}`,
      accessKey: decodeURIComponent(url.username),
      secretKey: decodeURIComponent(url.password),
    };
  }
  const found = loadConfig().aliases[name];
  if (!found) die(`alias ${name} is not set: mc alias set ${name} URL ACCESSKEY SECRETKEY`);
  return found;
}

/** "alias/bucket/prefix" → { alias, bucket, prefix }. */
function target(text) {
  if (!text) die('a target ALIAS[/BUCKET] is required');
  const [name, bucket = '', ...rest] = text.split('/');
  return { name, bucket, prefix: rest.join('/'), alias: alias(name) };
}

function client(a) {
  const url = new URL(a.url);
  return new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80,
    useSSL: url.protocol === 'https:',
    accessKey: a.accessKey,
    secretKey: a.secretKey,
    region: process.env.MC_REGION ?? 'us-east-1',
  });
}

async function adminCall(a, action, body) {
  const url = new URL(`/minio/admin/v3/standin/${action}`, a.url);
  const text = body === undefined ? '' : JSON.stringify(body);
  const method = body === undefined ? 'GET' : 'PUT';
  const headers = signRequest(
    { method, url, headers: text ? { 'content-type': 'application/json' } : {}, body: text },
    { accessKey: a.accessKey, secretKey: a.secretKey },
  );
  delete headers.host;
  const response = await fetch(url, { method, headers, body: text || undefined });
  const reply = await response.text();
  if (!response.ok) {
    let detail = reply;
    try {
      detail = JSON.parse(reply).error ?? reply;
    } catch {
      // An XML error from the signature check, or a server that is not the stand-in.
    }
    die(
      `${action} failed (${response.status}): ${detail}${response.status === 404 || response.status === 501 ? ' — the stand-in mc speaks only to the MinIO stand-in' : ''}`,
    );
  }
  return JSON.parse(reply);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(argv) {
  // mc's global flags that change nothing here.
  const args = argv.filter((arg) => !['--quiet', '-q', '--no-color', '--insecure', '--json'].includes(arg));
  const [command, ...rest] = args;
  switch (command) {
    case 'alias':
    case 'config': {
      const [sub, ...params] = command === 'config' ? rest.slice(1) : rest;
      const config = loadConfig();
      if (sub === 'set' || sub === 'add') {
        const [name, url, accessKey, secretKey] = params.filter((p) => !p.startsWith('--'));
        if (!name || !url || accessKey === undefined || secretKey === undefined)
          die('usage: mc alias set ALIAS URL ACCESSKEY SECRETKEY');
        // mc checks the credentials when it sets an alias; so does this, with a ListBuckets.
        await client({ url, accessKey, secretKey })
          .listBuckets()
          .catch((error) =>
            die(`Unable to initialize new alias from the provided credentials. ${error.code ?? ''} ${error.message}`),
          );
        config.aliases[name] = { url, accessKey, secretKey, api: 's3v4', path: 'auto' };
        saveConfig(config);
        console.log(`Added \`${name}\` successfully.`);
      } else if (sub === 'rm' || sub === 'remove') {
        delete config.aliases[params[0]];
        saveConfig(config);
        console.log(`Removed \`${params[0]}\` successfully.`);
      } else if (sub === 'ls' || sub === 'list') {
        for (const [name, a] of Object.entries(config.aliases))
          console.log(`${name}\n  URL       : ${a.url}\n  AccessKey : ${a.accessKey}\n`);
      } else die(`mc alias ${sub}: not supported by the stand-in mc`);
      return;
    }
    case 'ready': {
      const a = alias(rest[0] ?? die('usage: mc ready ALIAS'));
      // As mc: wait until the server says it is ready (a healthcheck's timeout bounds the wait).
      for (;;) {
        const ok = await fetch(new URL('/minio/health/ready', a.url)).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) {
          console.log(`The cluster '${rest[0]}' is ready`);
          return;
        }
        console.log(`The cluster '${rest[0]}' is unreachable, waiting…`);
        await sleep(1000);
      }
    }
    case 'mb': {
      const ignoreExisting = rest.some((p) => p === '--ignore-existing' || p === '-p');
      for (const spec of rest.filter((p) => !p.startsWith('-'))) {
        const t = target(spec);
        const c = client(t.alias);
        if (await c.bucketExists(t.bucket)) {
          if (!ignoreExisting)
            die(
              `Unable to make bucket \`${spec}\`. Your previous request to create the named bucket succeeded and you already own it.`,
            );
          console.log(`Bucket \`${spec}\` already exists, skipping.`);
          continue;
        }
        await c.makeBucket(t.bucket, process.env.MC_REGION ?? 'us-east-1');
        console.log(`Bucket created successfully \`${spec}\`.`);
      }
      return;
    }
    case 'rb': {
      const force = rest.includes('--force');
      for (const spec of rest.filter((p) => !p.startsWith('-'))) {
        const t = target(spec);
        const c = client(t.alias);
        if (force) {
          const names = [];
          for await (const item of c.listObjectsV2(t.bucket, '', true)) names.push(item.name);
          if (names.length) await c.removeObjects(t.bucket, names);
        }
        await c.removeBucket(t.bucket);
        console.log(`Removed \`${spec}\` successfully.`);
      }
      return;
    }
    case 'ls': {
      const recursive = rest.includes('--recursive') || rest.includes('-r');
      const t = target(rest.find((p) => !p.startsWith('-')));
      const c = client(t.alias);
      if (!t.bucket) {
        for (const b of await c.listBuckets()) console.log(`[${b.creationDate.toISOString()}]      0B ${b.name}/`);
        return;
      }
      for await (const item of c.listObjectsV2(t.bucket, t.prefix, recursive)) {
        console.log(
          item.prefix
            ? `                          0B ${item.prefix}`
            : `[${item.lastModified.toISOString()}] ${String(item.size).padStart(6)}B ${item.name}`,
        );
      }
      return;
    }
    case 'admin':
      return admin(rest);
    case '--version':
    case 'version':
      console.log("mc version standin (Node, minio npm client; not MinIO's mc)");
      return;
    default:
      die(
        `${command ?? '(no command)'}: not supported by the stand-in mc (alias, ready, mb, rb, ls, admin user|policy|info)`,
      );
  }
}

async function admin([area, sub, ...params]) {
  if (area === 'info') {
    const info = await adminCall(alias(sub), 'info');
    console.log(JSON.stringify(info, null, 2));
    return;
  }
  const a = alias(params[0] ?? die(`usage: mc admin ${area} ${sub} ALIAS …`));
  if (area === 'user' && sub === 'add') {
    const [, accessKey, secretKey] = params;
    await adminCall(a, 'add-user', { accessKey, secretKey });
    console.log(`Added user \`${accessKey}\` successfully.`);
  } else if (area === 'user' && (sub === 'rm' || sub === 'remove')) {
    await adminCall(a, 'remove-user', { accessKey: params[1] });
    console.log(`Removed user \`${params[1]}\` successfully.`);
  } else if (area === 'user' && (sub === 'ls' || sub === 'list')) {
    for (const [key, user] of Object.entries(await adminCall(a, 'list-users')))
      console.log(`${user.status}  ${key}  ${user.policies.join(',')}`);
  } else if (area === 'policy' && (sub === 'create' || sub === 'add')) {
    const [, name, file] = params;
    if (!name || !file) die('usage: mc admin policy create ALIAS NAME FILE.json');
    await adminCall(a, 'add-policy', { name, policy: JSON.parse(readFileSync(file, 'utf8')) });
    console.log(`Created policy \`${name}\` successfully.`);
  } else if (area === 'policy' && sub === 'attach') {
    // mc admin policy attach ALIAS POLICY [POLICY…] --user USER
    const at = params.indexOf('--user');
    const user = at >= 0 ? params[at + 1] : params.find((p) => p.startsWith('--user='))?.slice(7);
    if (!user) die('usage: mc admin policy attach ALIAS POLICY --user USER (groups are not supported by the stand-in)');
    const policies = params.slice(1).filter((p, i, all) => !p.startsWith('--') && all[i - 1] !== '--user');
    await adminCall(a, 'attach-policy', { user, policies });
    console.log(`Attached Policies: [${policies.join(' ')}]\nTo User: ${user}`);
  } else if (area === 'policy' && (sub === 'ls' || sub === 'list')) {
    for (const name of Object.keys(await adminCall(a, 'list-policies'))) console.log(name);
  } else {
    die(`mc admin ${area} ${sub}: not supported by the stand-in mc`);
  }
}

main(process.argv.slice(2)).catch((error) => die(`${error.code ? `${error.code}: ` : ''}${error.message}`));
