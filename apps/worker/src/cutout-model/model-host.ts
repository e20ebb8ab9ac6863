import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { CutoutModelConfig } from '@prodshot/config';
import type { ModelThreadData, SalientModelInfo } from './model-wire.js';

/** The thread entry sits beside this file: .ts when run from source (tests), .js when built. */
const here = fileURLToPath(import.meta.url);
const threadFile = path.join(path.dirname(here), `model-thread${path.extname(here)}`);

export interface ModelHost {
  info: SalientModelInfo;
  /** Connects an engine thread's port to the model. */
  attach(engine: MessagePort): void;
  /** Called once if the model thread ends while the worker still needs it. */
  onExit(listener: () => void): void;
  close(): Promise<void>;
}

/** The model could not be loaded; the message names the variable, for one line at boot. */
export class CutoutModelError extends Error {
  override readonly name = 'CutoutModelError';
}

/**
 * Loads the cutout model once for the whole worker process, in a thread of its own: engine
 * threads share it instead of each holding ~0.5 GB of weights and buffers.
 */
export async function startModelHost(config: CutoutModelConfig, threads: number): Promise<ModelHost> {
  const pool = new Piscina({
    filename: threadFile,
    // The thread module has no default export: Piscina resolves this name when the thread starts.
    name: 'load',
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: Number.POSITIVE_INFINITY,
    // The thread serves engine ports between tasks, so it must never block waiting for the next task.
    atomics: 'disabled',
  });
  const data: ModelThreadData = { ...config, threads };
  let info: SalientModelInfo;
  try {
    info = await pool.run(data, { name: 'load' });
  } catch (error) {
    await pool.destroy();
    throw new CutoutModelError(`CUTOUT_MODEL_PATH: ${(error as Error).message}`);
  }
  let closing = false;
  return {
    info,
    attach: (engine) => void pool.run({ engine }, { name: 'attach', transferList: [engine] }),
    onExit: (listener) => pool.once('workerDestroy', () => closing || listener()),
    close: async () => {
      closing = true;
      await pool.destroy();
    },
  };
}
