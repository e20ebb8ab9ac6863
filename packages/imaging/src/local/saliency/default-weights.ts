import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The graph the engine runs when CUTOUT_MODEL_PATH is unset: ISNet as IMG.LY ships it (AGPL-3.0). */
export const DEFAULT_WEIGHTS = {
  package: '@imgly/background-removal-data',
  /** The float16 ISNet graph (1×3×1024×1024 in); 'small' is a quantised one that runs slower on CPUs. */
  resource: '/models/medium',
  licence: 'AGPL-3.0',
  /**
   * The graph is traced at 1024²; run at 768² it takes ~0.6 of the time and memory, and the
   * mask, refined at the photo's own resolution, loses nothing the bench's IoU can see.
   */
  inputSize: 768,
} as const;

interface Resources {
  [name: string]: { chunks: { hash: string; offsets: [number, number] }[]; size: number } | undefined;
}

/** Where the package is installed, or null when it is not (a deployment that brings its own weights). */
export function defaultWeightsFolder(): string | null {
  try {
    return path.dirname(createRequire(import.meta.url).resolve(`${DEFAULT_WEIGHTS.package}/package.json`));
  } catch {
    return null;
  }
}

/**
 * The package stores each graph as content-addressed chunks listed in dist/resources.json; this
 * joins them back into the ONNX file and checks the size the listing promises.
 */
export async function readDefaultWeights(folder: string): Promise<Buffer> {
  const dist = path.join(folder, 'dist');
  const resources = JSON.parse(await readFile(path.join(dist, 'resources.json'), 'utf8')) as Resources;
  const entry = resources[DEFAULT_WEIGHTS.resource];
  if (!entry) throw new Error(`${DEFAULT_WEIGHTS.package} lists no ${DEFAULT_WEIGHTS.resource} graph`);
  const bytes = Buffer.concat(await Promise.all(entry.chunks.map((chunk) => readFile(path.join(dist, chunk.hash)))));
  if (bytes.length !== entry.size)
    throw new Error(
      `${DEFAULT_WEIGHTS.package} ${DEFAULT_WEIGHTS.resource} is ${bytes.length} bytes, expected ${entry.size}`,
    );
  return bytes;
}
