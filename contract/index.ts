export type { ManifestEntry } from '@agentgen/runtime';
export * from './agent-app-surface/index.js';
export * from './api-modes.js';
export * from './contract-schemas.js';
export * from './errors.js';
export * from './json-schema.js';
export * from './reasoning-engine.js';
