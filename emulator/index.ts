/** The local emulator of the runtime's public API (`agentgen dev`). */
export { startEmulator, defaultPort, defaultResource, type Emulator, type EmulatorOptions } from './emulator.js';
export { localImageUri, type ReasoningEngineResource, type ResourceDescription } from './resource.js';
export type { SessionsMode } from './container-env.js';
export type { ManifestEntry } from '../contract/index.js';
