/**
 * What `agentgen breaking` compares: each operation's api_mode, arguments and (when known) result,
 * as JSON Schema. From a spec (arguments as the manifest declares them, results from the model,
 * with `$ref`s to its named schemas), or from a manifest (a `class-methods.json`, a REST body or a deployed
 * resource's `classMethods`), which has no results: then results are not compared.
 */

import type { Model } from '../../../generator/model.js';
import { buildManifest } from '../../../generator/resolve/manifest.js';
import type { ApiMode } from '../../../spec/index.js';

export type Schema = Readonly<Record<string, unknown>>;

export interface SurfaceOperation {
  readonly apiMode: ApiMode;
  readonly input: Schema;
  readonly output: Schema | undefined;
}

export interface Surface {
  /** What it was read from, for messages: a file name or the deployed resource. */
  readonly label: string;
  readonly operations: ReadonlyMap<string, SurfaceOperation>;
  /** The named schemas results refer to (`#/components/schemas/Name`); none in a manifest. */
  readonly schemas: ReadonlyMap<string, Schema>;
}

export function surfaceFromModel(model: Model, label: string): Surface {
  const outputs = new Map(model.operations.map((op) => [op.name, op.output as Schema]));
  return {
    label,
    schemas: new Map(model.schemas.map((s) => [s.name, s.schema as Schema])),
    operations: new Map(
      buildManifest(model).map((entry): [string, SurfaceOperation] => [
        entry.name,
        { apiMode: entry.api_mode as ApiMode, input: entry.parameters, output: outputs.get(entry.name) },
      ]),
    ),
  };
}

const apiModes: readonly string[] = ['', 'async', 'stream', 'async_stream'];

/**
 * A manifest as JSON: a `[{name, api_mode, parameters}]` list, or an object holding one as
 * `spec.classMethods` (a REST body or a resource). Throws a message naming what is wrong.
 */
export function surfaceFromManifest(json: unknown, label: string): Surface {
  const spec = json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as { spec?: { classMethods?: unknown } }).spec : undefined;
  const list = Array.isArray(json) ? json : (spec?.classMethods ?? (spec !== undefined ? [] : undefined));
  if (!Array.isArray(list)) throw new Error(`${label}: not a manifest: expected a list of classMethods, or an object with spec.classMethods`);
  const operations = new Map<string, SurfaceOperation>();
  list.forEach((entry: unknown, index) => {
    const { name, api_mode: apiMode = '', parameters } = (entry ?? {}) as { name?: unknown; api_mode?: unknown; parameters?: unknown };
    if (typeof name !== 'string' || name === '') throw new Error(`${label}: classMethods[${index}] has no name`);
    if (typeof apiMode !== 'string' || !apiModes.includes(apiMode))
      throw new Error(`${label}: classMethods[${index}] (${name}) has an unknown api_mode ${JSON.stringify(apiMode)}`);
    // No parameters declared: any keyword arguments.
    const input = parameters !== null && typeof parameters === 'object' ? (parameters as Schema) : {};
    operations.set(name, { apiMode: apiMode as ApiMode, input, output: undefined });
  });
  return { label, operations, schemas: new Map() };
}
