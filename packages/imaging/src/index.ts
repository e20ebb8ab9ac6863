export * from './errors.js';
export * from './types.js';
export { createImageModel } from './create-image-model.js';
export type { ImageModelOptions } from './create-image-model.js';
export { createEngine, createPromptEnhancer, loadCutoutModel, loadEngine } from './create-engine.js';
export type { EngineParts } from './create-engine.js';
export { normaliseInput, MAX_INPUT_PIXELS } from './input/normalise-input.js';
export { screenInput } from './input/screen-input.js';
export type { NormalisedImage, InputInfo } from './input/normalise-input.js';
export { settleKind } from './local/analyse.js';
export { LocalImageModel } from './local/local-model.js';
export type { LocalModelOptions } from './local/local-model.js';
export { OpenAIImageModel } from './hosted/openai-model.js';
export type { OpenAIOptions } from './hosted/openai-model.js';
export { FalImageModel } from './hosted/fal-model.js';
export type { FalOptions } from './hosted/fal-model.js';
export { parsePrompt } from './local/prompt/parse-prompt.js';
export type { ParsedPrompt } from './local/prompt/parse-prompt.js';
export {
  loadSalientModel,
  ModelLoadError,
  OnnxSalientModel,
  SALIENT_MODEL_FAMILIES,
} from './local/saliency/onnx-salient-model.js';
export type { SalientModelFamily, SalientModelOptions } from './local/saliency/onnx-salient-model.js';
export type { SalientObjectModel } from './local/saliency/salient-model.js';
export { CachedSalientModel } from './local/saliency/cached-salient-model.js';
export { makeRenditions } from './renditions/make-renditions.js';
export { DOWNLOAD_COPY_MAX_BYTES, makeDownloadCopy } from './renditions/download-copy.js';
export type { DownloadCopy } from './renditions/download-copy.js';
export { renderExport } from './exports/reframe.js';
export type { ExportInput, ExportOutput } from './exports/reframe.js';
export { outputPlate, scenePlate } from './exports/scene-plate.js';
export type { ExportScene } from './exports/scene-plate.js';
export { measure } from './exports/measure.js';
export type { Measurements, MeasuredImage } from './exports/measure.js';
export { complianceLines, complianceNote } from './exports/compliance.js';
export * from './coach/index.js';
