/**
 * `class-methods.json`: the deploy manifest, `[{name, api_mode, description, parameters}]`, with
 * `parameters` in the form the reference SDK sends: an object schema of `properties`, `required`
 * (the arguments with no default) and `type: "object"`; optional arguments are `nullable`.
 */
import { contractSchemas, refPrefix, type JsonSchema, type ManifestEntry } from '../../spec/index.js';
import type { EmittedFile, Model, OperationModel } from '../model.js';

type ManifestSchema = { readonly [key: string]: unknown };

/** Every entry of the manifest agentgen writes carries all four fields. */
export function buildManifest(model: Model): Required<ManifestEntry>[] {
  return model.operations.map((op) => ({
    name: op.name,
    api_mode: op.apiMode,
    description: description(op),
    parameters: parameters(op.input),
  }));
}

export function emitManifest(model: Model): EmittedFile {
  return { path: 'class-methods.json', contents: `${JSON.stringify(buildManifest(model), null, 2)}\n` };
}

function description(op: OperationModel): string {
  return op.deprecated === undefined ? op.description : `${op.description} ${op.deprecated}`.trim();
}

function parameters(input: JsonSchema): ManifestSchema {
  const properties = Object.fromEntries(
    Object.entries(input.properties ?? {}).map(([key, schema]) => [key, manifestSchema(schema)]),
  );
  return { properties, required: [...(input.required ?? [])], type: 'object' };
}

const contractSchemaByName = new Map(contractSchemas);

/**
 * The reference SDK describes a dict-typed argument as a plain object; a contract `$ref` is written
 * the same way (its top-level type and description). Extension keywords are left out.
 */
function manifestSchema(schema: JsonSchema): ManifestSchema {
  if (schema.$ref !== undefined) {
    const target = contractSchemaByName.get(schema.$ref.slice(refPrefix.length));
    return compact({ type: target?.type, description: schema.description ?? target?.description, nullable: schema.nullable });
  }
  return compact({
    type: schema.type,
    description: schema.description,
    enum: schema.enum,
    anyOf: schema.anyOf?.map(manifestSchema),
    items: schema.items === undefined ? undefined : manifestSchema(schema.items),
    properties:
      schema.properties === undefined
        ? undefined
        : Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, manifestSchema(s)])),
    required: schema.required,
    nullable: schema.nullable,
  });
}

function compact(schema: Record<string, unknown>): ManifestSchema {
  return Object.fromEntries(Object.entries(schema).filter(([, value]) => value !== undefined));
}
