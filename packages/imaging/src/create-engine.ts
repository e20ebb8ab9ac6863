import type { CutoutModelConfig, ImageModelConfig } from '@prodshot/config';
import { createImageModel, type ImageModelOptions } from './create-image-model.js';
import { CachedSalientModel } from './local/saliency/cached-salient-model.js';
import { loadSalientModel } from './local/saliency/onnx-salient-model.js';
import type { SalientObjectModel } from './local/saliency/salient-model.js';
import type { ImageModel } from './types.js';

/**
 * How an engine is put together from the validated config, in one place: the worker builds its
 * engine threads with it and the command-line tools (`npm run shot`, `shot:sheet`, the imaging
 * bench) build theirs with it, so a shot made by hand is cut out exactly as a seller's would be.
 */

/**
 * The cutout model every engine finds the product with: the configured graph (by default the
 * packaged ISNet at its default size), loaded once per process, on `threads` onnxruntime threads.
 */
export async function loadCutoutModel(config: CutoutModelConfig, threads: number): Promise<SalientObjectModel> {
  // An upload is analysed and then cut out from the same pixels: the cache makes the second call cost a hash, not an inference.
  return new CachedSalientModel(await loadSalientModel({ ...config, threads }));
}

export interface EngineParts {
  /** The model from loadCutoutModel, in this thread or reached over a port (the worker's engine threads). */
  salient: SalientObjectModel;
  /** Cores one render may spread over. */
  coresPerRender: number;
}

/**
 * The image model the config names: the local engine by default, a hosted adapter when keys are
 * set. Every one of them finds the product with the cutout model, not with the classical cutout.
 */
export function createEngine(config: ImageModelConfig, parts: EngineParts): ImageModel {
  return createImageModel(modelOptions(config, parts));
}

/**
 * The engine's prompt writer alone, with no cutout model: text in, text out (a rewrite on the local
 * engine, one chat call on a hosted one). The worker runs it on its main thread, so a seller's
 * prompt never queues behind cutouts and renders in the engine threads.
 */
export function createPromptEnhancer(config: ImageModelConfig): Pick<ImageModel, 'enhancePrompt'> {
  const model = createImageModel(modelOptions(config, { coresPerRender: 1 }));
  return { enhancePrompt: (prompt, analysis, context) => model.enhancePrompt(prompt, analysis, context) };
}

function modelOptions(
  config: ImageModelConfig,
  { salient, coresPerRender }: Pick<EngineParts, 'coresPerRender'> & Partial<EngineParts>,
): ImageModelOptions {
  const cutout = salient ? { salient } : {};
  switch (config.kind) {
    case 'local':
      // Decoding the product while the scene renders pays only with a spare core; otherwise the two steps fight for one.
      return { kind: 'local', ...cutout, overlapSteps: coresPerRender > 1 };
    case 'openai':
      return {
        kind: 'openai',
        ...cutout,
        apiKey: config.apiKey,
        timeoutMs: config.timeoutMs,
        ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
        ...(config.imageModel ? { imageModel: config.imageModel } : {}),
        ...(config.chatModel ? { chatModel: config.chatModel } : {}),
      };
    case 'fal':
      return {
        kind: 'fal',
        ...cutout,
        apiKey: config.apiKey,
        timeoutMs: config.timeoutMs,
        ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
      };
  }
}

/**
 * The worker's engine in this one process, for tools that make one render at a time: the cutout
 * model loaded here rather than in a thread of its own, and every core given to the render.
 */
export async function loadEngine(
  config: { imageModel: ImageModelConfig; cutoutModel: CutoutModelConfig },
  cpus: number,
): Promise<ImageModel> {
  return createEngine(config.imageModel, {
    salient: await loadCutoutModel(config.cutoutModel, cpus),
    coresPerRender: cpus,
  });
}
