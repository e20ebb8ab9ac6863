import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CutoutModelConfig, ImageModelConfig } from './config-types.js';
import { ConfigError } from './config-error.js';
import type { Env } from './env-schema.js';
import { need } from './read-env.js';

export function imageModelConfig(env: Env): ImageModelConfig {
  switch (env.IMAGE_MODEL) {
    case 'local':
      return { kind: 'local' };
    case 'openai':
      return {
        kind: 'openai',
        apiKey: need(env, 'OPENAI_API_KEY', 'when IMAGE_MODEL=openai'),
        baseUrl: env.OPENAI_BASE_URL,
        imageModel: env.OPENAI_IMAGE_MODEL,
        chatModel: env.OPENAI_CHAT_MODEL,
        timeoutMs: env.ENGINE_TIMEOUT_MS,
      };
    case 'fal':
      return {
        kind: 'fal',
        apiKey: need(env, 'FAL_KEY', 'when IMAGE_MODEL=fal'),
        baseUrl: env.FAL_BASE_URL,
        timeoutMs: env.ENGINE_TIMEOUT_MS,
      };
  }
}

export function cutoutModelConfig(env: Env, cwd: string): CutoutModelConfig {
  const file = env.CUTOUT_MODEL_PATH ? path.resolve(cwd, env.CUTOUT_MODEL_PATH) : undefined;
  if (file && !statSync(file, { throwIfNoEntry: false })?.isFile())
    throw new ConfigError('CUTOUT_MODEL_PATH', `names no file (${file})`);
  // Shared by every worker on the machine (and every test stack): the widened graph depends only on the weights.
  return {
    path: file,
    family: env.CUTOUT_MODEL_FAMILY,
    inputSize: env.CUTOUT_MODEL_INPUT_SIZE,
    cacheDir: path.join(tmpdir(), 'prodshot-models'),
  };
}
