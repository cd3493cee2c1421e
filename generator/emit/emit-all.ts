/**
 * Emit: model → every output file, in path order. Pure (no I/O): same model, same bytes.
 * Each TypeScript file is re-parsed before it is returned.
 */
import type { Assets } from '../assets.js';
import type { EmittedFile, Model } from '../model.js';
import { emitBundledRuntime } from './bundled-runtime.js';
import { emitClient } from './client.js';
import { emitIndex } from './index-file.js';
import { emitManifest } from './manifest.js';
import { emitOpenApi } from './openapi.js';
import { assertParses } from './print.js';
import { emitServer } from './server.js';
import { emitTypes } from './types.js';
import { emitValidators } from './validators.js';

/** The factories and the types a user writes against; server.ts and client.ts re-export the runtime's. */
const indexExports = [
  "export type * from './types.js';",
  "export * from './validators.js';",
  "export { createAgentServer, createRequestListener, AgentError, isAgentError, stderrLogger, operations } from './server.js';",
  "export type { AgentHandlers, AgentServer, AgentServerOptions, HandlerContext, LogEntry, RpcStatus } from './server.js';",
  "export { createAgentClient, AgentApiError, AgentValidationError, clientOperations } from './client.js';",
  "export type { AgentClient, AgentClientOptions, CallOptions, EventStream } from './client.js';",
];

export function emitAll(model: Model, assets: Assets): EmittedFile[] {
  const files = [
    emitTypes(model, assets),
    emitValidators(model, assets),
    emitServer(model, assets),
    emitClient(model, assets),
    emitOpenApi(model),
    emitManifest(model),
    emitIndex(model, assets, indexExports),
    ...emitBundledRuntime(model, assets),
  ];
  for (const file of files) if (file.path.endsWith('.ts')) assertParses(file.path, file.contents);
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
