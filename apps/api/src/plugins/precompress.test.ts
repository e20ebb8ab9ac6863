import { mkdir, mkdtemp, readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { precompressDir } from './precompress.js';

const css = Array.from({ length: 200 }, (_, i) => `.c${i} { margin: ${i}px; }`).join('\n');

async function build(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'prodshot-precompress-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'assets', 'app.css'), css);
  await writeFile(path.join(dir, 'robots.txt'), 'User-agent: *\n');
  await writeFile(path.join(dir, 'assets', 'photo.webp'), Buffer.alloc(4096, 7));
  return dir;
}

describe('precompressing the web build', () => {
  it('writes brotli and gzip copies of text worth compressing, leaving small files and images alone', async () => {
    const dir = await build();
    expect(await precompressDir(dir)).toBe(2);
    expect(brotliDecompressSync(await readFile(path.join(dir, 'assets', 'app.css.br'))).toString()).toBe(css);
    expect(gunzipSync(await readFile(path.join(dir, 'assets', 'app.css.gz'))).toString()).toBe(css);
    expect((await readdir(dir, { recursive: true })).sort()).toEqual([
      'assets',
      'assets/app.css',
      'assets/app.css.br',
      'assets/app.css.gz',
      'assets/photo.webp',
      'robots.txt',
    ]);
  });

  it('keeps current copies and redoes those older than their file', async () => {
    const dir = await build();
    await precompressDir(dir);
    expect(await precompressDir(dir)).toBe(0);
    const changed = `${css}\n.new { color: red; }`;
    await writeFile(path.join(dir, 'assets', 'app.css'), changed);
    const later = new Date(Date.now() + 60_000);
    await utimes(path.join(dir, 'assets', 'app.css'), later, later);
    expect(await precompressDir(dir)).toBe(2);
    expect(brotliDecompressSync(await readFile(path.join(dir, 'assets', 'app.css.br'))).toString()).toBe(changed);
  });
});
