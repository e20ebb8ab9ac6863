import { promisify } from 'node:util';
import yauzl, { type Entry, type ZipFile } from 'yauzl';

/** Every entry of a zip, read in full: what a seller finds on unzipping the download. */
export async function readZip(zip: Buffer): Promise<{ name: string; data: Buffer }[]> {
  const file = await promisify<Buffer, yauzl.Options, ZipFile>(yauzl.fromBuffer)(zip, { lazyEntries: true });
  const entries: { name: string; data: Buffer }[] = [];
  await new Promise<void>((resolve, reject) => {
    file.on('error', reject).on('end', resolve);
    file.on('entry', (entry: Entry) => {
      file.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk)).on('error', reject);
        stream.on('end', () => {
          entries.push({ name: entry.fileName, data: Buffer.concat(chunks) });
          file.readEntry();
        });
      });
    });
    file.readEntry();
  });
  return entries;
}
