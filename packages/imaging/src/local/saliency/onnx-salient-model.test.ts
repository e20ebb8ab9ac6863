import { mkdtemp, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CachedSalientModel } from './cached-salient-model.js';
import { loadSalientModel, ModelLoadError } from './onnx-salient-model.js';
import { redSaliencyGraph, tracedRedSaliencyGraph, twoInputGraph } from './stand-in-graph.test-support.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'prodshot-graph-'));
});

async function graphFile(name: string, bytes: Uint8Array): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
}

/** Planar input of a size² photo whose left half is red and right half green, normalised as ISNet wants. */
function halfRedInput(size: number): Float32Array {
  const plane = size * size,
    input = new Float32Array(3 * plane);
  for (let p = 0; p < plane; p++) {
    const red = p % size < size / 2;
    const [r, g, b] = red ? [210, 30, 40] : [50, 150, 60];
    input[p] = (r - 128) / 256;
    input[plane + p] = (g - 128) / 256;
    input[2 * plane + p] = (b - 128) / 256;
  }
  return input;
}

describe('loading a salient-object graph', () => {
  it('reads the input size from the graph and returns a mask of that size', async () => {
    const model = await loadSalientModel({
      path: await graphFile('red.onnx', redSaliencyGraph({ size: 48 })),
      cacheDir: dir,
    });
    expect([model.inputWidth, model.inputHeight]).toEqual([48, 48]);
    const mask = await model.predict(halfRedInput(48));
    expect(mask).toHaveLength(48 * 48);
    expect(mask[0]).toBeGreaterThan(0.99);
    expect(mask[47]).toBeLessThan(0.01);
  });

  it('widens a float16 graph to float32 once, keeps it on disk, and gets the same masks', async () => {
    const cacheDir = path.join(dir, 'cache');
    const half = await graphFile('red16.onnx', redSaliencyGraph({ float16: true }));
    const full = await loadSalientModel({ path: await graphFile('red32.onnx', redSaliencyGraph()), cacheDir });
    const widened = await loadSalientModel({ path: half, cacheDir });
    const [cached] = await readdir(cacheDir);
    expect(cached).toMatch(/-fp32-64\.onnx$/);
    const [expected, actual] = [await full.predict(halfRedInput(64)), await widened.predict(halfRedInput(64))];
    for (let p = 0; p < expected.length; p += 97) expect(actual[p]).toBeCloseTo(expected[p]!, 2);
    const before = await stat(path.join(cacheDir, cached!));
    await loadSalientModel({ path: half, cacheDir });
    expect((await stat(path.join(cacheDir, cached!))).mtimeMs).toBe(before.mtimeMs);
  });

  it('runs a traced graph at another input size by rescaling its frozen upsampling sizes', async () => {
    const traced = await graphFile('red-traced.onnx', tracedRedSaliencyGraph(64));
    const own = await loadSalientModel({ path: traced, cacheDir: dir });
    expect([own.inputWidth, own.inputHeight]).toEqual([64, 64]);
    const smaller = await loadSalientModel({ path: traced, cacheDir: dir, inputSize: 32 });
    expect([smaller.inputWidth, smaller.inputHeight]).toEqual([32, 32]);
    const mask = await smaller.predict(halfRedInput(32));
    expect(mask).toHaveLength(32 * 32);
    expect(mask[32 * 16 + 2]).toBeGreaterThan(0.99);
    expect(mask[32 * 16 + 29]).toBeLessThan(0.01);
    // 33 would make the frozen 32 of the S/2 step 16.5: the graph's pooling could never agree.
    await expect(loadSalientModel({ path: traced, cacheDir: dir, inputSize: 33 })).rejects.toThrow(
      /cannot run at 33×33: an upsampling size of 32 at 64/,
    );
  });

  it('refuses a missing file, a file that is not ONNX and a graph of the wrong shape, saying why', async () => {
    await expect(loadSalientModel({ path: path.join(dir, 'absent.onnx') })).rejects.toThrow(
      /cannot read .*absent\.onnx: ENOENT/,
    );
    await expect(
      loadSalientModel({ path: await graphFile('junk.onnx', Buffer.from('not a model at all, just text')) }),
    ).rejects.toThrow(ModelLoadError);
    await expect(loadSalientModel({ path: await graphFile('two.onnx', twoInputGraph()) })).rejects.toThrow(
      /expected one image input, found 2/,
    );
  });

  it('fails an inference it cannot run with a model_failed error', async () => {
    const model = await loadSalientModel({
      path: await graphFile('red-small.onnx', redSaliencyGraph({ size: 32 })),
      cacheDir: dir,
    });
    await expect(model.predict(new Float32Array(10))).rejects.toMatchObject({ code: 'model_failed' });
  });
});

describe('the mask cache', () => {
  it('runs the model once for the same input and hands every caller its own copy', async () => {
    const inner = await loadSalientModel({
      path: await graphFile('red-cache.onnx', redSaliencyGraph({ size: 32 })),
      cacheDir: dir,
    });
    let runs = 0;
    const counting = Object.assign(Object.create(inner) as typeof inner, {
      predict: (input: Float32Array) => (runs++, inner.predict(input)),
    });
    const cached = new CachedSalientModel(counting, 2);
    const first = await cached.predict(halfRedInput(32));
    first.fill(0);
    const second = await cached.predict(halfRedInput(32));
    expect(runs).toBe(1);
    expect(second[0]).toBeGreaterThan(0.99);
  });

  it('keeps an upload’s mask while 15 other photos are run, and forgets the oldest after that', async () => {
    const seen: number[] = [];
    const recording = {
      description: 'recording',
      inputWidth: 1,
      inputHeight: 1,
      mean: [0, 0, 0],
      std: [1, 1, 1],
      predict: async (input: Float32Array) => (seen.push(input[0]!), Float32Array.of(input[0]!)),
    } as const;
    const cached = new CachedSalientModel(recording);
    const photo = (n: number) => Float32Array.of(n, 0, 0);
    for (let n = 0; n < 16; n++) await cached.predict(photo(n));
    await cached.predict(photo(0));
    expect(seen).toHaveLength(16);
    await cached.predict(photo(16));
    await cached.predict(photo(1));
    expect(seen.slice(16)).toEqual([16, 1]);
  });
});
