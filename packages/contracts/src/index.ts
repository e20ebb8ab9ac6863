export * from './templates.js';
export * from './products.js';
export * from './jobs.js';
export * from './health.js';
export * from './errors.js';
