export * from './templates.js';
export * from './products.js';
