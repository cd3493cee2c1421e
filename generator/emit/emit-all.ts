/**
 * Emit: model → every output file, in path order. Pure (no I/O): same model, same bytes.
 * Each TypeScript file is re-parsed before it is returned.
 *
 * Three files are printed through ts-morph (types.ts, validators.ts, index.ts); the rest are
 * built as text. `expectedOutput` tells `check` how to recognise a current output folder without
 * printing, so a check with nothing stale never loads ts-morph.
 */
import type { Assets } from '../assets.js';
import type { EmittedFile, Model } from '../model.js';
import { emitBundledRuntime } from './bundled-runtime.js';
import { emitClient } from './client.js';
import { hasCurrentHeader } from './header.js';
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
    emitIndex(model, assets, indexExports),
    ...emitUnprinted(model, assets),
  ];
  for (const file of files) if (file.path.endsWith('.ts')) assertParses(file.path, file.contents);
  return byPath(files);
}

/** The files `emitAll` prints through ts-morph. */
export const printedPaths: readonly string[] = ['index.ts', 'types.ts', 'validators.ts'];

/** The files built as text, without ts-morph (and without the parse check). */
function emitUnprinted(model: Model, assets: Assets): EmittedFile[] {
  return [
    emitServer(model, assets),
    emitClient(model, assets),
    emitOpenApi(model),
    emitManifest(model),
    ...emitBundledRuntime(model, assets),
  ];
}

/** One file of the output and how to tell that its text on disk is what `emitAll` gives. */
export interface ExpectedFile {
  readonly path: string;
  readonly isCurrent: (text: string) => boolean;
}

/**
 * The output as `check` can recognise it without ts-morph, in path order: the files built as text
 * must match byte for byte; a printed file must carry the header this generator version writes
 * for this model, and a body that matches the digest in it (it is unchanged since it was
 * written). A false answer proves the file stale; callers that report it print everything with
 * `emitAll`.
 */
export function expectedOutput(model: Model, assets: Assets): ExpectedFile[] {
  return byPath([
    ...printedPaths.map((path) => ({ path, isCurrent: (text: string) => hasCurrentHeader(model, assets, text) })),
    ...emitUnprinted(model, assets).map(({ path, contents }) => ({ path, isCurrent: (text: string) => text === contents })),
  ]);
}

function byPath<T extends { readonly path: string }>(files: T[]): T[] {
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
