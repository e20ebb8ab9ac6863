/**
 * Input hygiene and the typed errors alone (`@prodshot/imaging/input`): what the API needs of the
 * engine's package. Importing the package's root also loads onnxruntime and the local engine,
 * about 26 MB of resident memory an API process would carry for nothing.
 */
export * from '../errors.js';
export { normaliseInput, MAX_INPUT_PIXELS } from './normalise-input.js';
export type { NormalisedImage, InputInfo } from './normalise-input.js';
export { screenInput } from './screen-input.js';
export { decodeEachImageOnce } from './one-shot-decodes.js';
