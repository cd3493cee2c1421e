/**
 * The resolved model: the one immutable input of every emitter. Built by `resolve/` from a
 * loaded spec and the contract data in `contract/`; emitters never see raw spec text.
 */

import type { A2AFace } from '@agentgen/runtime/server';
import type { ApiMode, ApiModeRouting, JsonSchema } from '../contract/index.js';
import type { ImportExtension, RuntimeMode, UiProtocol } from './load/spec-format.js';

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
  /**
   * A standard operation's arguments as the reference deploy catalogue declares them (the
   * manifest writes these); absent for a custom operation or when the spec replaces the input.
   */
  readonly parameters?: JsonSchema;
  /** The result (unary) or each event (stream). `{}` means any JSON; `{type: 'null'}` means no result. */
  readonly output: JsonSchema;
  /** Names derived for generated code; unique across the model (checked by resolve). */
  readonly names: OperationNames;
  readonly origin: 'surface' | 'custom';
}

export interface OperationNames {
  /** PascalCase base, e.g. `AsyncCreateSession`. */
  readonly pascal: string;
  /**
   * TypeScript type of `input` as a handler receives it (validated: a property with a `default` is
   * always there), e.g. `AsyncCreateSessionInput`.
   */
  readonly inputType: string;
  /**
   * TypeScript type of `input` as a caller passes it (a property with a `default` may be left
   * out), e.g. `PlanTripCallInput`; the same as `inputType` when the two do not differ.
   */
  readonly callInputType: string;
  /** TypeScript type of the result or event, e.g. `AsyncCreateSessionResult` / `AsyncStreamQueryEvent`. */
  readonly outputType: string;
  /** zod schema constants, e.g. `asyncCreateSessionInput`, `asyncCreateSessionResult`. */
  readonly inputSchema: string;
  readonly outputSchema: string;
}

export interface NamedSchema {
  /** The type name (a validated value); also the OpenAPI component name. */
  readonly name: string;
  /**
   * The type of the JSON a sender writes, when a `default` inside makes it differ from `name` (a
   * property with a default may be left out), e.g. `OptionsInput`; else the same as `name`.
   */
  readonly inputName: string;
  /** zod schema constant, e.g. `session` (the contract's) or `addressSchema` (the spec's). */
  readonly schemaConst: string;
  readonly schema: JsonSchema;
  /** The contract's (`#/components/schemas/…` in specs) or the spec's own (`schemas:`). */
  readonly origin: 'contract' | 'spec';
  /**
   * The named schemas it reaches through `$ref`s and that reach it back, itself included; empty
   * when it is not recursive. Their zod schemas refer to each other through `z.lazy`.
   */
  readonly cycle: readonly string[];
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
  /** How the output's relative imports end: `./validators.js`, `./validators` or `./validators.ts`. */
  readonly importExtension: ImportExtension;
  /** The spec's `ui`: the web UI stream protocols `ui.ts` is written for; none, no `ui.ts`. */
  readonly ui: readonly UiProtocol[];
  /**
   * The named schemas, in dependency order: the contract's, then the spec's (a schema after those
   * it refers to, except within a cycle). Every `$ref` in the model is `#/components/schemas/Name`.
   */
  readonly schemas: readonly NamedSchema[];
  /** Declared operations, in a stable order: surface order, then custom ones by name. */
  readonly operations: readonly OperationModel[];
  /** The spec's `a2a`: the A2A face the container serves beside the contract routes; none, none served. */
  readonly a2a: A2AFaceModel | undefined;
  /**
   * The API's licence (OpenAPI `info.license`): the spec's `license`; for the standard surface
   * generated without a spec, agentgen's own (the surface is agentgen's definition); else none.
   */
  readonly license: LicenseModel | undefined;
}

/**
 * The A2A face, in the form the runtime takes it (`A2AFace` of `@agentgen/runtime/codegenv1/server`):
 * generated `server.ts` writes it out as a literal, so the model holds exactly that type.
 */
export type A2AFaceModel = A2AFace;

export interface LicenseModel {
  readonly name: string;
  readonly identifier?: string;
  readonly url?: string;
}

/** One output file of an emitter; paths are relative to the output folder, with `/`. */
export interface EmittedFile {
  readonly path: string;
  readonly contents: string;
}
