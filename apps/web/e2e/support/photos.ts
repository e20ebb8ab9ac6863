import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

/** Writes a photo to a fresh temporary folder under `name`, for a file input to pick. */
export async function photoFile(bytes: Buffer, name: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'prodshot-e2e-')), name);
  await writeFile(file, bytes);
  return file;
}

/** A drawn serum bottle on a pale backdrop: one clear product (no tap step), as a JPEG file. */
export async function drawnBottlePhoto(): Promise<string> {
  const bottle = await sharp({ create: { width: 260, height: 560, channels: 3, background: '#c23a5a' } })
    .png()
    .toBuffer();
  const photo = await sharp({ create: { width: 900, height: 900, channels: 3, background: '#f1efe9' } })
    .composite([{ input: bottle, left: 320, top: 170 }])
    .jpeg()
    .toBuffer();
  return photoFile(photo, 'rose-serum.jpg');
}
