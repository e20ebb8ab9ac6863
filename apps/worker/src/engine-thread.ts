import { MessageChannel, parentPort, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { createEngine, imagingErrorData, isImagingError, type ImageModel } from '@prodshot/imaging';
import { idleThisThread } from './cpu-priority.js';
import { RemoteSalientModel } from './cutout-model/remote-salient-model.js';
import type { EngineThreadData } from './engine-pool.js';
import { revive, type EngineCall, type EngineReply } from './engine-wire.js';

const { imageModel, threadsPerRender, idleThread, cutoutModel } = workerData as EngineThreadData;
if (idleThread) idleThisThread();
// Renders rarely reuse an input, so libvips' operation cache mostly holds memory: keep it small.
sharp.cache({ memory: 32, files: 0, items: 50 });
sharp.concurrency(threadsPerRender);

// The pool hands this port to the worker's model thread: every engine thread shares one model.
const channel = new MessageChannel();
parentPort!.postMessage({ cutoutModelPort: channel.port2 }, [channel.port2]);
const salient = new RemoteSalientModel(cutoutModel, channel.port1);

const engine: ImageModel = createEngine(imageModel, { salient, coresPerRender: threadsPerRender });

/** Runs one engine method in this thread; errors travel back as plain data (a thread cannot throw our classes across). */
export default async function call({ method, args }: EngineCall): Promise<EngineReply> {
  try {
    const fn = engine[method] as (...params: unknown[]) => Promise<unknown>;
    return { ok: true, value: await fn.apply(engine, revive(args) as unknown[]) };
  } catch (error) {
    if (isImagingError(error)) return { ok: false, imaging: imagingErrorData(error) };
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** Answers once this thread has loaded the engine: the pool waits for it before taking jobs. */
export function warm(): boolean {
  return engine.name.length > 0;
}
