import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ImageModelConfig, WorkerCpuPriority } from '@prodshot/config';
import { createPromptEnhancer, ModelTimeoutError, reviveImagingError, type ImageModel } from '@prodshot/imaging';
import type { ModelHost } from './cutout-model/model-host.js';
import type { SalientModelInfo } from './cutout-model/model-wire.js';
import { revive, type EngineCall, type EngineMethod, type EngineReply } from './engine-wire.js';

/** The thread entry sits beside this file: .ts when run from source (tests), .js when built. */
const threadFile = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  `engine-thread${path.extname(fileURLToPath(import.meta.url))}`,
);

export interface EnginePool {
  engine: ImageModel;
  /** Resolves once threads have loaded the engine, so the first job's deadline is not spent loading code. */
  warm(): Promise<void>;
  close(): Promise<void>;
}

/** The engine's data for each thread: which model, and how many cores one render may spread over. */
export interface EngineThreadData {
  imageModel: ImageModelConfig;
  threadsPerRender: number;
  /** Run under SCHED_IDLE (WORKER_CPU_PRIORITY=idle): set by the thread itself, so a replacement thread is too. */
  idleThread: boolean;
  /** The shared cutout model's input needs; the thread reaches the model over a port it sends the pool. */
  cutoutModel: SalientModelInfo;
}

/**
 * Cores one render may use: the worker's CPUs shared by the renders it runs at once. At one core
 * per render, libvips runs single-threaded and a render's steps run in turn, since extra threads
 * would only contend with the other renders for the same cores.
 */
export function threadsPerRender(cpus: number, concurrency: number): number {
  return Math.max(1, Math.floor(cpus / concurrency));
}

/**
 * The image model on worker threads. The local engine computes in JavaScript for hundreds of
 * milliseconds per shot; on the main thread that would stall BullMQ's lock renewal and socket
 * heartbeats, so every call that touches pixels runs in a pool sized to the concurrency of the
 * queue it serves. Prompt enhancement touches none: it runs here, or it would wait in the pool's
 * queue behind every cutout the lane holds (the soak's slow prompts waited behind upload analyses).
 */
export function createEnginePool(
  config: ImageModelConfig,
  model: ModelHost,
  {
    threads,
    cpus,
    cpuPriority,
    timeoutMs,
  }: { threads: number; cpus: number; cpuPriority: WorkerCpuPriority; timeoutMs: number },
): EnginePool {
  const workerData: EngineThreadData = {
    imageModel: config,
    threadsPerRender: threadsPerRender(cpus, threads),
    idleThread: cpuPriority === 'idle',
    cutoutModel: model.info,
  };
  const pool = new Piscina<EngineCall, EngineReply>({
    filename: threadFile,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    workerData,
    // Pixels live in typed arrays outside the JS heap (a 4096 px shot uses about 10 MB of heap), so
    // a small heap only makes V8 collect sooner: it keeps a busy worker's RSS bounded.
    resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 8 },
  });
  // Every thread, a replacement too, sends the port it will ask the model on.
  pool.on('message', (message: { cutoutModelPort?: MessagePort }) => {
    if (message?.cutoutModelPort) model.attach(message.cutoutModelPort);
  });
  // A call past its deadline is aborted, which ends its thread (Piscina starts a fresh one): a hung
  // model cannot hold a worker slot forever.
  const call = async (method: EngineMethod, args: unknown[]): Promise<never> => {
    let reply: EngineReply;
    try {
      reply = await pool.run({ method, args }, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      if ((error as Error).name === 'AbortError' || (error as Error).name === 'TimeoutError') {
        throw new ModelTimeoutError(config.kind, timeoutMs, { cause: error });
      }
      throw error;
    }
    if (reply.ok) return revive(reply.value) as never;
    if ('imaging' in reply) throw reviveImagingError(reply.imaging);
    throw new Error(reply.message);
  };
  const engine: ImageModel = {
    name: config.kind,
    analyse: (...args) => call('analyse', args),
    findProduct: (...args) => call('findProduct', args),
    readKind: (...args) => call('readKind', args),
    recommendStyles: (...args) => call('recommendStyles', args),
    removeBackground: (...args) => call('removeBackground', args),
    generate: (...args) => call('generate', args),
    enhancePrompt: createPromptEnhancer(config).enhancePrompt,
    upscale: (...args) => call('upscale', args),
  };
  return {
    engine,
    warm: async () => {
      await Promise.all(Array.from({ length: threads }, () => pool.run(null as never, { name: 'warm' })));
    },
    close: () => pool.destroy(),
  };
}
