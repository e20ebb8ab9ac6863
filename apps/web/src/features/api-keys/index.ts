// What routes use of API keys: the profile's section.
export { ApiKeysSection } from './api-keys-section.js';
