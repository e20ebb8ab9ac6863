import { FalImageModel } from './hosted/fal-model.js';
import type { FalOptions } from './hosted/fal-model.js';
import { OpenAIImageModel } from './hosted/openai-model.js';
import type { OpenAIOptions } from './hosted/openai-model.js';
import { LocalImageModel, type LocalModelOptions } from './local/local-model.js';
import type { ImageModel } from './types.js';

/**
 * Which engine to build. The config package validates the environment and passes these in;
 * this package never reads process.env.
 */
export type ImageModelOptions =
  ({ kind: 'local' } & LocalModelOptions) | ({ kind: 'openai' } & OpenAIOptions) | ({ kind: 'fal' } & FalOptions);

export function createImageModel(options: ImageModelOptions): ImageModel {
  switch (options.kind) {
    case 'local':
      return new LocalImageModel(options);
    case 'openai':
      return new OpenAIImageModel(options);
    case 'fal':
      return new FalImageModel(options);
  }
}
