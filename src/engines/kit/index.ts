export * from './engine.js';
export * from './result.js';
export * from './shuffle.js';
export * from './replay.js';
export * from './seeded.js';
export * from './play.js';
