export * from './errors.js';
export * from './jobs.js';
export * from './keys.js';
export * from './media.js';
export * from './options.js';
export * from './render.js';
export * from './responses.js';
export * from './result.js';
