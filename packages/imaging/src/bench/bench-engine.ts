import { CachedSalientModel, loadSalientModel } from '../index.js';
import { LocalImageModel } from '../local/local-model.js';

/**
 * The engine the imaging bench and the contact sheet measure: the local engine with the ISNet
 * cutout (onnxruntime, 2 threads). `BENCH_ENGINE=classical` measures the classical cutout instead.
 */
export async function benchEngine(): Promise<LocalImageModel> {
  if (process.env.BENCH_ENGINE === 'classical') return new LocalImageModel();
  // As in the worker: a photo analysed and then cut out costs one inference.
  return new LocalImageModel({ salient: new CachedSalientModel(await loadSalientModel({ threads: 2 })) });
}

/** A line for logs and the results: which cutout the bench ran. */
export function benchEngineLabel(): string {
  return process.env.BENCH_ENGINE === 'classical' ? 'local engine, classical cutout' : 'local engine, ISNet cutout (onnxruntime-node, 2 threads)';
}
