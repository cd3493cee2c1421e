export * from './api-modes.js';
export * from './errors.js';
export * from './json-schema.js';
export * from './contract-schemas.js';
export * from './agent-app-surface/index.js';
export type { ManifestEntry } from '@agentgen/runtime';
export * from './reasoning-engine.js';
