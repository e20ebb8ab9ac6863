import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { ModelFailedError } from '../../errors.js';
import { DEFAULT_WEIGHTS, defaultWeightsFolder, readDefaultWeights } from './default-weights.js';
import { inspectGraph, prepareGraph, type GraphShape } from './onnx-graph.js';
import type { SalientObjectModel } from './salient-model.js';

/** How a graph family wants its input scaled: ISNet takes (v − 128) / 256, BiRefNet ImageNet statistics. */
export const SALIENT_MODEL_FAMILIES = {
  isnet: { mean: [128 / 255, 128 / 255, 128 / 255], std: [256 / 255, 256 / 255, 256 / 255] },
  birefnet: { mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] },
} as const satisfies Record<
  string,
  { mean: readonly [number, number, number]; std: readonly [number, number, number] }
>;
export type SalientModelFamily = keyof typeof SALIENT_MODEL_FAMILIES;

export interface SalientModelOptions {
  /** A salient-object ONNX graph; default: the ISNet graph of @imgly/background-removal-data. */
  path?: string;
  family?: SalientModelFamily;
  /** Cores one inference may use (onnxruntime intra-op threads). Default 1. */
  threads?: number;
  /** Where a rewritten graph (widened to float32, rescaled) is kept between boots. Default: the OS temp folder. */
  cacheDir?: string;
  /**
   * The square input size to run the graph at, when it is not the one it was traced at (see
   * prepareGraph). Default: DEFAULT_WEIGHTS.inputSize for the packaged ISNet, the graph's own for a file.
   */
  inputSize?: number;
}

/** The model cannot be used at all: its message says which file and why, for one line at boot. */
export class ModelLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ModelLoadError';
  }
}

const MODEL_LABEL = 'cutout model';

/** onnxruntime on the CPU, one session shared by every caller in the process. */
export class OnnxSalientModel implements SalientObjectModel {
  readonly inputWidth: number;
  readonly inputHeight: number;
  readonly mean: readonly [number, number, number];
  readonly std: readonly [number, number, number];

  constructor(
    private readonly session: InferenceSession,
    private readonly shape: GraphShape,
    family: SalientModelFamily,
    readonly description: string,
  ) {
    this.inputWidth = shape.inputWidth;
    this.inputHeight = shape.inputHeight;
    ({ mean: this.mean, std: this.std } = SALIENT_MODEL_FAMILIES[family]);
  }

  async predict(input: Float32Array): Promise<Float32Array> {
    const { inputName, outputName, inputWidth, inputHeight } = this.shape;
    if (input.length !== 3 * inputWidth * inputHeight)
      throw new ModelFailedError(MODEL_LABEL, `input of ${input.length} values`);
    let mask: Float32Array;
    try {
      const outputs = await this.session.run(
        { [inputName]: new Tensor('float32', input, [1, 3, inputHeight, inputWidth]) },
        [outputName],
      );
      mask = outputs[outputName]!.data as Float32Array;
    } catch (error) {
      throw new ModelFailedError(MODEL_LABEL, (error as Error).message.split('\n')[0]!.slice(0, 200), { cause: error });
    }
    if (mask.length !== inputWidth * inputHeight)
      throw new ModelFailedError(MODEL_LABEL, `a mask of ${mask.length} values`);
    for (let i = 0; i < mask.length; i++) mask[i] = mask[i]! < 0 ? 0 : mask[i]! > 1 ? 1 : mask[i]!;
    return mask;
  }

  release(): Promise<void> {
    return this.session.release();
  }
}

async function readSource(file: string | undefined): Promise<{ bytes: Buffer; description: string }> {
  if (file) {
    try {
      return { bytes: await readFile(file), description: file };
    } catch (error) {
      throw new ModelLoadError(
        `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        { cause: error },
      );
    }
  }
  const folder = defaultWeightsFolder();
  if (!folder)
    throw new ModelLoadError(
      `${DEFAULT_WEIGHTS.package} is not installed: run npm install, or point CUTOUT_MODEL_PATH at an ONNX graph`,
    );
  try {
    return {
      bytes: await readDefaultWeights(folder),
      description: `ISNet (${DEFAULT_WEIGHTS.package}, ${DEFAULT_WEIGHTS.licence})`,
    };
  } catch (error) {
    throw new ModelLoadError(`cannot read the default weights: ${(error as Error).message}`, { cause: error });
  }
}

/** A graph rewritten once (widened, rescaled) and kept by content hash and size, so later boots load it straight from disk. */
async function preparedFile(bytes: Buffer, shape: GraphShape, inputSize: number, cacheDir: string): Promise<string> {
  const name = `${createHash('sha256').update(bytes).digest('hex').slice(0, 24)}-fp32-${inputSize}.onnx`;
  const file = path.join(cacheDir, name);
  if (await stat(file).catch(() => null)) return file;
  await mkdir(cacheDir, { recursive: true });
  const partial = `${file}.${process.pid}.${Date.now()}.part`;
  await writeFile(partial, prepareGraph(bytes, shape, inputSize));
  await rename(partial, file);
  return file;
}

/**
 * Loads a salient-object graph once: checks its shape, widens float16 weights and rescales its
 * input when asked (cached on disk), and opens a session with onnxruntime's memory arena and pattern off. With them on, an ISNet
 * session holds about 2 GB; off, about 0.5 GB, for a ~10% slower run.
 */
export async function loadSalientModel(options: SalientModelOptions = {}): Promise<OnnxSalientModel> {
  const source = await readSource(options.path);
  const where = options.path ?? DEFAULT_WEIGHTS.package;
  const inputSize = options.inputSize ?? (options.path ? undefined : DEFAULT_WEIGHTS.inputSize);
  let traced: GraphShape;
  let graph: string | Buffer = source.bytes;
  try {
    traced = inspectGraph(source.bytes);
    const size = inputSize ?? traced.inputWidth;
    if (traced.float16 || size !== traced.inputWidth)
      graph = await preparedFile(
        source.bytes,
        traced,
        size,
        options.cacheDir ?? path.join(os.tmpdir(), 'prodshot-models'),
      );
  } catch (error) {
    throw new ModelLoadError(`${where} is not a usable salient-object graph: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const shape: GraphShape = inputSize ? { ...traced, inputWidth: inputSize, inputHeight: inputSize } : traced;
  try {
    const session = await InferenceSession.create(graph as Uint8Array, {
      intraOpNumThreads: Math.max(1, options.threads ?? 1),
      interOpNumThreads: 1,
      enableCpuMemArena: false,
      enableMemPattern: false,
      graphOptimizationLevel: 'all',
      logSeverityLevel: 3,
    });
    return new OnnxSalientModel(session, shape, options.family ?? 'isnet', source.description);
  } catch (error) {
    throw new ModelLoadError(
      `${where} could not be loaded by onnxruntime: ${(error as Error).message.split('\n')[0]}`,
      { cause: error },
    );
  }
}
