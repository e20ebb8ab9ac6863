import type { MessagePort } from 'node:worker_threads';
import { isImagingError, loadCutoutModel, ModelFailedError, type SalientObjectModel } from '@prodshot/imaging';
import type { ModelThreadData, PredictReply, PredictRequest, SalientModelInfo } from './model-wire.js';

/**
 * The worker's one copy of the cutout model (a Piscina thread of its own). Engine threads send
 * it inputs over their own ports; inference runs here, one at a time, on onnxruntime's threads.
 */
let model: SalientObjectModel | null = null;

/** Loads the model; rejects with a message that says what is wrong with the weights. */
export async function load({ threads, ...config }: ModelThreadData): Promise<SalientModelInfo> {
  model = await loadCutoutModel(config, threads);
  const { description, inputWidth, inputHeight, mean, std } = model;
  return { description, inputWidth, inputHeight, mean, std };
}

/** Answers an engine thread's requests on its port for as long as the port is open. */
export function attach({ engine }: { engine: MessagePort }): void {
  const loaded = model;
  if (!loaded) throw new Error('the cutout model is not loaded');
  engine.on('message', ({ id, input }: PredictRequest) => {
    loaded.predict(input).then(
      (mask) => engine.postMessage({ id, mask } satisfies PredictReply, [mask.buffer as ArrayBuffer]),
      (error: unknown) => {
        const failure = isImagingError(error) ? error : new ModelFailedError('cutout model', (error as Error).message);
        engine.postMessage({ id, error: { code: failure.code, message: failure.message } } satisfies PredictReply);
      },
    );
  });
}
