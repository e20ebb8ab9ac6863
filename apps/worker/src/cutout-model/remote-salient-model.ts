import type { MessagePort } from 'node:worker_threads';
import { ImagingError, ModelFailedError, type SalientObjectModel } from '@prodshot/imaging';
import type { PredictReply, PredictRequest, SalientModelInfo } from './model-wire.js';

/** The worker's shared cutout model, seen from an engine thread: inferences go over a port to the model thread. */
export class RemoteSalientModel implements SalientObjectModel {
  readonly description: string;
  readonly inputWidth: number;
  readonly inputHeight: number;
  readonly mean: readonly [number, number, number];
  readonly std: readonly [number, number, number];
  private readonly pending = new Map<
    number,
    { resolve: (mask: Float32Array) => void; reject: (error: Error) => void }
  >();
  private nextId = 0;

  constructor(
    info: SalientModelInfo,
    private readonly port: MessagePort,
  ) {
    ({
      description: this.description,
      inputWidth: this.inputWidth,
      inputHeight: this.inputHeight,
      mean: this.mean,
      std: this.std,
    } = info);
    port.on('message', (reply: PredictReply) => {
      const call = this.pending.get(reply.id);
      if (!call) return;
      this.pending.delete(reply.id);
      if ('mask' in reply) call.resolve(reply.mask);
      else call.reject(new ImagingError(reply.error.code, reply.error.message));
    });
    // The model thread is gone: nothing in flight will be answered.
    port.on('close', () => {
      for (const call of this.pending.values()) call.reject(new ModelFailedError('cutout model', 'the model stopped'));
      this.pending.clear();
    });
  }

  predict(input: Float32Array): Promise<Float32Array> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.port.postMessage({ id, input } satisfies PredictRequest, [input.buffer as ArrayBuffer]);
    });
  }
}
