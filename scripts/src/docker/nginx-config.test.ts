import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const template = readFileSync(path.join(repoRoot, 'infra/docker/nginx.conf.template'), 'utf8');

/** Each `location … { … }` block of the server, by its match (no nested blocks in this file). */
const locations = [...template.matchAll(/^ *location ([^{]+)\{([^}]*)\}/gm)].map((m) => ({
  match: m[1]!.trim(),
  body: m[2]!,
}));

describe('infra/docker/nginx.conf.template', () => {
  it('asks the API for the sitemap, whose addresses depend on the deployment, not the static build', () => {
    const sitemap = locations.find((l) => l.match === '= /sitemap.xml');
    expect(sitemap?.body).toContain('proxy_pass http://api:3000;');
  });

  it("forwards the uploads' fallback path to the API, which answers the image to the app's bearer token, ahead of the file and SPA locations", () => {
    const uploads = locations.find((l) => l.match === '^~ /uploads/');
    expect(uploads?.body).toContain('proxy_pass http://api:3000;');
    // A ^~ prefix wins over the regex location for paths with an extension, and over the SPA's '/'.
    const source = readFileSync(path.join(repoRoot, 'apps/api/src/routes/uploads/uploads.ts'), 'utf8');
    expect(source).toMatch(/app\.get\(\s*'\/uploads\/:id'/);
  });

  it('waits on the API longer than its longest wait, the synchronous generation call', () => {
    const source = readFileSync(path.join(repoRoot, 'apps/api/src/services/generations/generation-waits.ts'), 'utf8');
    const syncWaitMs = Number(/SYNC_WAIT_MS = ([\d_]+);/.exec(source)![1]!.replaceAll('_', ''));
    const api = locations.find((l) => l.match === '^~ /api/');
    const readTimeout = /proxy_read_timeout (\d+)s;/.exec(api?.body ?? '');
    expect(readTimeout, 'proxy_read_timeout in /api/').not.toBeNull();
    expect(Number(readTimeout![1]) * 1000).toBeGreaterThan(syncWaitMs);
  });

  it('sends the page policy, which forbids framing and connects to its own origin, file store and Clerk only, from every location serving files', () => {
    const policy = /map "\$\{PRODSHOT_CLERK_ORIGIN\}" \$prodshot_csp \{\s*default "([^"]+)";/.exec(template)?.[1];
    expect(policy).toContain("frame-ancestors 'none'");
    expect(/connect-src ([^;]*)/.exec(policy!)?.[1]?.trim().split(/\s+/)).toEqual([
      "'self'",
      '${PRODSHOT_STORAGE_ORIGIN}',
      '${PRODSHOT_CLERK_ORIGIN}',
    ]);
    const serving = locations.filter((l) => !l.body.includes('proxy_pass'));
    expect(serving.map((l) => l.match)).toEqual(['^~ /assets/', '~ \\.[A-Za-z0-9]+$', '= /', '/']);
    for (const location of serving)
      expect(location.body, location.match).toContain('add_header Content-Security-Policy $prodshot_csp always;');
  });

  it("serves the home page's own page at / (it preloads the hero) and app.html, without that preload, at every other client route", () => {
    expect(locations.find((l) => l.match === '= /')?.body).toContain('try_files /index.html =404;');
    expect(locations.find((l) => l.match === '/')?.body).toContain('try_files $uri /app.html;');
  });
});
