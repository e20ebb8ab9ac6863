import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';

/** Text the web build emits. Images and fonts are compressed formats already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this a compressed copy saves less than the headers it costs. */
const MIN_BYTES = 1024;

const ENCODERS = {
  br: (size: number) =>
    createBrotliCompress({
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: size,
      },
    }),
  gz: () => createGzip({ level: constants.Z_BEST_COMPRESSION }),
};

/**
 * Writes a .br and a .gz beside every text file of a web build that lacks a current one, for
 * @fastify/static (preCompressed) and nginx (gzip_static) to send as they are: compressed once,
 * at the best level, instead of on every request. Returns how many copies it wrote.
 */
export async function precompressDir(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && COMPRESSIBLE.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
  let written = 0;
  for (const file of files) {
    const source = await stat(file);
    if (source.size < MIN_BYTES) continue;
    for (const [extension, encoder] of Object.entries(ENCODERS)) {
      const target = `${file}.${extension}`;
      const existing = await stat(target).catch(() => null);
      if (existing && existing.mtimeMs >= source.mtimeMs) continue;
      await writeWhole(target, (temp) =>
        pipeline(createReadStream(file), encoder(source.size), createWriteStream(temp)),
      );
      written += 1;
    }
  }
  return written;
}

/** A server reading the folder meanwhile sees the old copy or the new one, never half of one. */
async function writeWhole(target: string, write: (temp: string) => Promise<void>): Promise<void> {
  const temp = `${target}.${process.pid}.tmp`;
  try {
    await write(temp);
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
}
