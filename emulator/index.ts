/** The local emulator of the runtime's public API (`agentgen dev`). */
export { startEmulator, defaultPort, defaultResource, type Emulator, type EmulatorOptions } from './emulator.js';
export { devCommand, runDev, type DevArgs, type DevIo, type ManifestLoader } from './cli.js';
export type { ManifestEntry } from '../spec/index.js';
