/** The local emulator of the runtime's public API (`agentgen dev`). */
export { startEmulator, defaultPort, defaultResource, type Emulator, type EmulatorOptions } from './emulator.js';
export { localImageUri, type ReasoningEngineResource, type ResourceDescription } from './core/resource.js';
export type { SessionsMode } from './containers/container-env.js';
export type { ManifestEntry } from '../spec/index.js';
