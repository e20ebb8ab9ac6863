import { CachedSalientModel, loadSalientModel } from '../index.js';
import { LocalImageModel } from '../local/local-model.js';

import { DEFAULT_WEIGHTS } from '../local/saliency/default-weights.js';

/** The size the worker would run the model at: CUTOUT_MODEL_INPUT_SIZE as the worker reads it, else the default. */
function inputSize(): number {
  return Number(process.env.CUTOUT_MODEL_INPUT_SIZE) || DEFAULT_WEIGHTS.inputSize;
}

/**
 * The engine the imaging bench and the contact sheet measure: the local engine with the ISNet
 * cutout (onnxruntime, 2 threads). `BENCH_ENGINE=classical` measures the classical cutout instead.
 */
export async function benchEngine(): Promise<LocalImageModel> {
  if (process.env.BENCH_ENGINE === 'classical') return new LocalImageModel();
  // As in the worker: a photo analysed and then cut out costs one inference.
  return new LocalImageModel({ salient: new CachedSalientModel(await loadSalientModel({ threads: 2, inputSize: inputSize() })) });
}

/** A line for logs and the results: which cutout the bench ran. */
export function benchEngineLabel(): string {
  return process.env.BENCH_ENGINE === 'classical' ? 'local engine, classical cutout' : `local engine, ISNet cutout at ${inputSize()}² (onnxruntime-node, 2 threads)`;
}
