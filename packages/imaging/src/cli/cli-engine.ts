import { ConfigError, loadConfig } from '@prodshot/config';
import { loadEngine } from '../create-engine.js';
import { isImagingError } from '../errors.js';
import { ModelLoadError } from '../local/saliency/onnx-salient-model.js';
import type { ImageModel } from '../types.js';

/**
 * The engine `npm run shot` and `npm run shot:sheet` run: the worker's, built by the same factory
 * from the same variables (IMAGE_MODEL and its keys, CUTOUT_MODEL_PATH / _FAMILY / _INPUT_SIZE,
 * WORKER_CPUS), so a photo the worker can cut out, the CLI can too.
 */
export async function cliEngine(env: NodeJS.ProcessEnv = process.env): Promise<ImageModel> {
  // npm runs workspace scripts inside the package; a relative CUTOUT_MODEL_PATH means where the user typed.
  const config = loadConfig(env, { cwd: env.INIT_CWD ?? process.cwd() });
  return loadEngine(config, config.worker.cpus);
}

/** One line for what the user can fix (a variable, the weights, the photo); anything else with its stack. */
export function describeFailure(error: unknown): unknown {
  if (isImagingError(error)) return `${error.code}: ${error.message}`;
  if (error instanceof ConfigError || error instanceof ModelLoadError) return error.message;
  return error;
}
