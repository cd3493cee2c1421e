/**
 * The local emulator of the runtime's public API (`agentgen dev`): the one door the CLI uses
 * (test/layering/ holds it to that); tests may import deeper.
 */
export { startEmulator, type Emulator } from './emulator.js';
export { defaultPort, defaultResource, type EmulatorOptions } from './options.js';
export { localImageUri, type ReasoningEngineResource, type ResourceDescription } from './core/resource.js';
export { PortInUseError, type Face } from './core/port-in-use.js';
export { defaultMaxDepth } from './calls/envelope.js';
export { sessionsModes, type SessionsMode } from './containers/container-env.js';
export { killContainersNow } from './containers/container-process.js';
export { parseEngineName } from './google-api/engine-name.js';
export { createConsoleHandler, isLoopbackHost } from './console/serve.js';
export { batchedLines } from './text/log-lines.js';
export { printableBytes, printableText } from './text/printable-text.js';
export type { ManifestEntry } from '../contract/index.js';
