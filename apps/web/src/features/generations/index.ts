// What other features may use of generations: a generation's live state, and the names of a smart run's stages.
export { useGeneration } from './api/get-generation.js';
export { STAGE_LABELS } from './smart-status.js';
