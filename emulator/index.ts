/**
 * The local emulator of the runtime's public API (`agentgen dev`): the one door the CLI uses
 * (test/layering/ holds it to that); tests may import deeper.
 */

export type { ManifestEntry } from '../contract/index.js';
export { defaultMaxDepth } from './calls/envelope.js';
export { createConsoleHandler, isLoopbackHost } from './console/serve.js';
export { type SessionsMode, sessionsModes } from './containers/container-env.js';
export { killContainersNow } from './containers/container-process.js';
export { type Face, PortInUseError } from './core/port-in-use.js';
export { localImageUri, type ReasoningEngineResource, type ResourceDescription } from './core/resource.js';
export { type Emulator, startEmulator } from './emulator.js';
export { parseEngineName } from './google-api/engine-name.js';
export { defaultPort, defaultResource, type EmulatorOptions } from './options.js';
export { batchedLines } from './text/log-lines.js';
