import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import type { ObjectStore } from './object-store.js';

/** One finished output to put in the zip, named without its extension (the bytes decide that). */
export interface ArchiveEntry {
  key: string;
  baseName: string;
}

/** The formats our pipeline writes, by their first bytes. */
export function imageExtension(head: Buffer): 'png' | 'jpg' | 'webp' | 'bin' {
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'webp';
  return 'bin';
}

/** Reads the stream's first bytes and puts them back, so the whole stream still flows on. */
async function peek(stream: Readable, bytes: number): Promise<Buffer> {
  for (;;) {
    const head = stream.read(bytes) as Buffer | null;
    if (head) {
      stream.unshift(head);
      return head;
    }
    if (stream.readableEnded) return Buffer.alloc(0);
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        stream.off('readable', done).off('end', done).off('error', fail);
        resolve();
      };
      const fail = (error: Error) => {
        stream.off('readable', done).off('end', done);
        reject(error);
      };
      stream.once('readable', done).once('end', done).once('error', fail);
    });
  }
}

/** `name.ext`, or `name-2.ext` and on when the name was taken already. */
function unique(name: string, ext: string, used: Set<string>): string {
  let candidate = `${name}.${ext}`;
  for (let n = 2; used.has(candidate); n += 1) candidate = `${name}-${n}.${ext}`;
  used.add(candidate);
  return candidate;
}

/**
 * The size of the zip streamArchive makes of these entries, by yazl's own reckoning, so the button
 * can say it before the download starts. Each is named by its key's extension, which our keys take
 * from what they hold. Nothing is read: the size is known from the names and sizes alone, and the
 * zip asks for no file until it is read, which it never is.
 */
export function archiveSize(entries: (ArchiveEntry & { bytes: number })[]): Promise<number> {
  const zip = new ZipFile();
  const used = new Set<string>();
  for (const entry of entries) {
    const name = unique(entry.baseName, path.extname(entry.key).slice(1), used);
    zip.addReadStreamLazy(name, { size: entry.bytes, compress: false }, () => undefined);
  }
  // The types call the size callback argument-less; yazl passes it the size.
  return new Promise((resolve) => zip.end({ forceZip64Format: false, comment: '' }, resolve as () => void));
}

/**
 * A zip of the entries, streamed: one stored file is read at a time, straight from storage into
 * the zip's output, so memory holds a chunk per file, never the archive. Images are compressed
 * already, so entries are stored as they are. An entry that cannot be read ends the stream with
 * an error (the download fails rather than silently missing a shot).
 */
export function streamArchive(store: ObjectStore, entries: ArchiveEntry[]): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const used = new Set<string>();
  void (async () => {
    for (const entry of entries) {
      // The caller went away (the download was cancelled): open nothing more.
      if (output.destroyed) return;
      const { stream } = await store.getStream(entry.key);
      const head = await peek(stream, 12);
      zip.addReadStream(stream, unique(entry.baseName, imageExtension(head), used), { compress: false });
      // The next file opens only once this one has gone into the zip.
      await finished(stream);
    }
    zip.end();
  })().catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  return output;
}
