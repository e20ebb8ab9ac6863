import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROUTES_DIR = path.dirname(fileURLToPath(import.meta.url));
/** Folders whose URLs are not under /api/<folder>: the filesystem store's signed files, and the site's own files. */
const URL_PREFIX: Record<string, string> = { uploads: '/uploads', site: '/sitemap.xml' };

/** Every route path a route file declares as a literal: `app.get('/api/…'` and its siblings. */
function declaredPaths(source: string): string[] {
  return [...source.matchAll(/\bapp\.(?:get|post|put|patch|delete)\(\s*'([^']+)'/g)].map((match) => match[1]!);
}

describe('routes follow their URLs', () => {
  const folders = readdirSync(ROUTES_DIR, { withFileTypes: true }).filter((entry) => entry.isDirectory());

  it.each(folders.map((folder) => folder.name))('routes/%s/ holds only routes under its own URL', (folder) => {
    const prefix = URL_PREFIX[folder] ?? `/api/${folder}`;
    const files = readdirSync(path.join(ROUTES_DIR, folder)).filter((file) => /^[^.]+\.ts$/.test(file));
    const paths = files.flatMap((file) => declaredPaths(readFileSync(path.join(ROUTES_DIR, folder, file), 'utf8')));
    expect(paths.filter((url) => url !== prefix && !url.startsWith(`${prefix}/`))).toEqual([]);
  });

  it('finds the routes it checks', () => {
    const images = readFileSync(path.join(ROUTES_DIR, 'images', 'recent-generations.ts'), 'utf8');
    expect(declaredPaths(images)).toEqual(['/api/images/recent/generations']);
  });
});
