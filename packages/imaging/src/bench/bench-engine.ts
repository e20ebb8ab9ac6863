import { loadConfig } from '@prodshot/config';
import { loadEngine } from '../create-engine.js';
import { LocalImageModel } from '../local/local-model.js';
import { DEFAULT_WEIGHTS } from '../local/saliency/default-weights.js';
import type { ImageModel } from '../types.js';

/** The bench's figures are published for this machine's 2 cores, so they do not follow WORKER_CPUS. */
const BENCH_CPUS = 2;

/** The cutout model as the worker reads it from CUTOUT_MODEL_PATH / _FAMILY / _INPUT_SIZE. */
function configuredCutoutModel() {
  return loadConfig(process.env).cutoutModel;
}

/**
 * The engine the imaging bench measures: the worker's local engine with its ISNet cutout, built by
 * the shared factory (whatever IMAGE_MODEL says: the bench measures our own engine, not a vendor's).
 * `BENCH_ENGINE=classical` measures the classical cutout instead, as a baseline.
 */
export async function benchEngine(): Promise<ImageModel> {
  if (process.env.BENCH_ENGINE === 'classical') return new LocalImageModel();
  return loadEngine({ imageModel: { kind: 'local' }, cutoutModel: configuredCutoutModel() }, BENCH_CPUS);
}

/** A line for logs and the results: which cutout the bench ran. */
export function benchEngineLabel(): string {
  const inputSize = configuredCutoutModel().inputSize ?? DEFAULT_WEIGHTS.inputSize;
  return process.env.BENCH_ENGINE === 'classical' ? 'local engine, classical cutout' : `local engine, ISNet cutout at ${inputSize}² (onnxruntime-node, ${BENCH_CPUS} threads)`;
}
