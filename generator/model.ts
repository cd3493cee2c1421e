/**
 * The resolved model: the one immutable input of every emitter. Built by `resolve/` from a
 * loaded spec and the contract data in `spec/`; emitters never see raw spec text.
 */
import type { ApiMode, ApiModeRouting, JsonSchema } from '../spec/index.js';
import type { RuntimeMode } from './load/spec-format.js';

export interface OperationModel {
  /** As declared; a validated identifier (snake_case for the standard surface). */
  readonly name: string;
  readonly apiMode: ApiMode;
  /** Routing of the mode: public endpoint, container route, unary or stream. */
  readonly routing: ApiModeRouting;
  readonly description: string;
  /** Why direct use is discouraged, or undefined. */
  readonly deprecated: string | undefined;
  /** JSON Schema of the keyword arguments; always `type: object`. */
  readonly input: JsonSchema;
  /** The result (unary) or each event (stream). `{}` means any JSON; `{type: 'null'}` means no result. */
  readonly output: JsonSchema;
  /** Names derived for generated code; unique across the model (checked by resolve). */
  readonly names: OperationNames;
  readonly origin: 'surface' | 'custom';
}

export interface OperationNames {
  /** PascalCase base, e.g. `AsyncCreateSession`. */
  readonly pascal: string;
  /** TypeScript type of `input`, e.g. `AsyncCreateSessionInput`. */
  readonly inputType: string;
  /** TypeScript type of the result or event, e.g. `AsyncCreateSessionResult` / `AsyncStreamQueryEvent`. */
  readonly outputType: string;
  /** zod schema constants, e.g. `asyncCreateSessionInput`, `asyncCreateSessionResult`. */
  readonly inputSchema: string;
  readonly outputSchema: string;
}

export interface NamedSchema {
  /** PascalCase type name; also the OpenAPI component name. */
  readonly name: string;
  /** zod schema constant, camelCase, e.g. `session`. */
  readonly schemaConst: string;
  readonly schema: JsonSchema;
}

export interface Model {
  /** The spec's `name`, e.g. `travel-agent`. */
  readonly name: string;
  /** Where the spec came from, for headers: a file's base name, or the standard surface. */
  readonly source: string;
  /** Short sha256 of the canonical model: changes exactly when the output's meaning can. */
  readonly hash: string;
  readonly generatorVersion: string;
  /** `package`: generated code imports `@agentgen/runtime`; `bundle`: a copy under `runtime/`. */
  readonly runtime: RuntimeMode;
  /** The contract's named schemas, in dependency order. */
  readonly schemas: readonly NamedSchema[];
  /** Declared operations, in a stable order: surface order, then custom ones by name. */
  readonly operations: readonly OperationModel[];
}

/** One output file of an emitter; paths are relative to the output folder, with `/`. */
export interface EmittedFile {
  readonly path: string;
  readonly contents: string;
}
