import type { ImageModelConfig } from '@prodshot/config';
import { createImageModel, type ImageModel, type LocalModelOptions } from '@prodshot/imaging';

/**
 * The image model the config names: the local engine by default, a hosted adapter when keys are
 * set. Every one of them finds the product with the on-device cutout model in `local.salient`.
 */
export function createEngine(config: ImageModelConfig, local: LocalModelOptions = {}): ImageModel {
  switch (config.kind) {
    case 'local':
      return createImageModel({ kind: 'local', ...local });
    case 'openai':
      return createImageModel({
        kind: 'openai',
        ...(local.salient ? { salient: local.salient } : {}),
        apiKey: config.apiKey,
        ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
        ...(config.imageModel ? { imageModel: config.imageModel } : {}),
        ...(config.chatModel ? { chatModel: config.chatModel } : {}),
      });
    case 'fal':
      return createImageModel({ kind: 'fal', apiKey: config.apiKey, ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}), ...(local.salient ? { salient: local.salient } : {}) });
  }
}
