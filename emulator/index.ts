/** The local emulator of the runtime's public API (`agentgen dev`). */

export type { ManifestEntry } from '../spec/index.js';
export type { SessionsMode } from './container-env.js';
export { defaultPort, defaultResource, type Emulator, type EmulatorOptions, startEmulator } from './emulator.js';
export { localImageUri, type ReasoningEngineResource, type ResourceDescription } from './resource.js';
