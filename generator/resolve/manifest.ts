/**
 * The deploy manifest (`class-methods.json`, the `classMethods` of the create request), `[{name, api_mode, description, parameters}]`, with
 * `parameters` in the form the reference SDK sends (pydantic's JSON Schema, post-processed): an
 * object schema of `properties`, `required` (the arguments with no default) and `type: "object"`;
 * null is written `nullable: true`, never as a `"null"` type; no `$ref`s.
 */
import { type JsonSchema, type JsonType, type ManifestEntry, refPrefix, schemaTypes } from '../../contract/index.js';
import type { Model, NamedSchema, OperationModel } from '../model.js';
import { jsonLengths } from './json-length.js';

type ManifestSchema = { readonly [key: string]: unknown };

/**
 * The longest written-out form (as `JSON.stringify(…, null, 2)` writes it, at the top level) of a
 * spec schema that the manifest writes out in place where it is used; a longer one is written as
 * its type, as the reference catalogue writes a structured argument (`session`). Without it, a
 * few schemas that each refer to the next twice would be written out 2^n times.
 */
export const inlineSchemaLimit = 16 * 1024;

/** Every entry of the manifest agentgen writes carries all four fields. */
export function buildManifest(model: Model): Required<ManifestEntry>[] {
  const writer = manifestWriter(model);
  return model.operations.map((op) => ({
    name: op.name,
    api_mode: op.apiMode,
    description: description(op),
    // A standard operation is declared exactly as the reference catalogue declares it.
    parameters: op.parameters === undefined ? parameters(op.input, writer) : (op.parameters as ManifestSchema),
  }));
}

/**
 * The description with the deprecation reason. A reason that reads as a notice ("Deprecated. Use …
 * instead.", as the reference writes its sync forms) opens the text as its own paragraph, where the
 * reference puts it; any other reason follows the description.
 */
function description(op: OperationModel): string {
  const { description: text, deprecated } = op;
  if (deprecated === undefined) return text;
  if (deprecated.startsWith('Deprecated')) return text === '' ? deprecated : `${deprecated}\n\n${text}`;
  return `${text} ${deprecated}`.trim();
}

/** How the schemas of one manifest are written: each spec schema's form is built once and shared by its uses. */
interface Writer {
  readonly named: ReadonlyMap<string, NamedSchema>;
  /** The spec schemas whose `$ref`s are written as their type here: the cycle of the schema being written out. */
  readonly cycle: readonly string[];
  /** The written-out form of a spec schema; undefined when it is longer than `inlineSchemaLimit`. */
  readonly writtenOut: (target: NamedSchema) => ManifestSchema | undefined;
}

function manifestWriter(model: Model): Writer {
  const named = new Map(model.schemas.map((s) => [s.name, s]));
  const length = jsonLengths();
  const forms = new Map<string, ManifestSchema | undefined>();
  const writtenOut = (target: NamedSchema): ManifestSchema | undefined => {
    if (!forms.has(target.name)) {
      // Inside a recursive schema, its cycle's `$ref`s are written as their type: the form depends on
      // the schema alone, and one written out already is used again as it is.
      const form = manifestSchema(target.schema, { named, cycle: target.cycle, writtenOut });
      forms.set(target.name, length(form) <= inlineSchemaLimit ? form : undefined);
    }
    return forms.get(target.name);
  };
  return { named, cycle: [], writtenOut };
}

function parameters(input: JsonSchema, writer: Writer): ManifestSchema {
  const properties = Object.fromEntries(Object.entries(input.properties ?? {}).map(([key, schema]) => [key, manifestSchema(schema, writer)]));
  const required = (input.required ?? []).filter((key) => input.properties?.[key]?.default === undefined);
  return { properties, required, type: 'object' };
}

/** Keywords of one type, written on the member of that type when a schema has several. */
const keywordsOfType: Readonly<Partial<Record<JsonType, readonly (keyof JsonSchema)[]>>> = {
  string: ['format', 'minLength', 'maxLength', 'pattern'],
  number: ['format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: ['minItems', 'maxItems', 'uniqueItems'],
  object: ['minProperties', 'maxProperties'],
};

/**
 * One argument's schema. A contract `$ref` is written as the reference SDK describes a dict-typed
 * argument: its top-level type and description. A `$ref` to one of the spec's schemas is written
 * out in place, except where it refers into the cycle of a recursive schema being written out, or
 * the written-out form would be longer than `inlineSchemaLimit`: those are written like a contract
 * `$ref`. Extension keywords are left out.
 */
function manifestSchema(schema: JsonSchema, writer: Writer): ManifestSchema {
  const annotations = {
    title: schema.title,
    description: schema.description,
    default: schema.default,
    examples: schema.examples,
    example: schema.example,
    deprecated: schema.deprecated,
    readOnly: schema.readOnly,
    writeOnly: schema.writeOnly,
  };
  if (schema.$ref !== undefined) {
    // Beside a `$ref` there are only annotations, `default` and `nullable` (resolve checks that).
    const name = schema.$ref.slice(refPrefix.length);
    const target = writer.named.get(name);
    const inlined = target === undefined || target.origin === 'contract' || writer.cycle.includes(name) ? undefined : writer.writtenOut(target);
    if (inlined === undefined) {
      return compact({
        type: target === undefined ? undefined : schemaTypes(target.schema).find((t) => t !== 'null'),
        description: schema.description ?? target?.schema.description,
        nullable: schema.nullable,
      });
    }
    return compact({ ...inlined, ...compact(annotations), nullable: schema.nullable || inlined.nullable === true || undefined });
  }
  // `null` among other types is `nullable: true`; a schema of type null alone stays that.
  const all = schemaTypes(schema);
  const types = all.length === 1 ? all : all.filter((t) => t !== 'null');
  const nullable = schema.nullable === true || (all.length > 1 && all.includes('null')) || undefined;
  const pick = (keys: readonly (keyof JsonSchema)[]) => Object.fromEntries(keys.map((k) => [k, schema[k]]));
  const inner = (s: JsonSchema) => manifestSchema(s, writer);
  // Several types: one `anyOf` member each, with the keywords of its type (as pydantic writes a Union).
  const typeMembers = types.length > 1 ? types.map((t) => compact({ type: t, ...pick(keywordsOfType[t] ?? []) })) : undefined;
  const anyOf = schema.anyOf?.map(inner);
  const allOf = [...(schema.allOf?.map(inner) ?? []), ...(typeMembers !== undefined && anyOf !== undefined ? [{ anyOf }] : [])];
  return compact({
    type: types.length === 1 ? types[0] : undefined,
    title: annotations.title,
    description: annotations.description,
    ...(types.length === 1 ? pick(keywordsOfType[types[0]!] ?? []) : {}),
    enum: schema.enum,
    const: schema.const,
    anyOf: typeMembers ?? anyOf,
    oneOf: schema.oneOf?.map(inner),
    allOf: allOf.length > 0 ? allOf : undefined,
    not: schema.not === undefined ? undefined : inner(schema.not),
    items: schema.items === undefined ? undefined : inner(schema.items),
    properties: schema.properties === undefined ? undefined : Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, inner(s)])),
    required: schema.required,
    default: annotations.default,
    examples: annotations.examples,
    example: annotations.example,
    deprecated: annotations.deprecated,
    readOnly: annotations.readOnly,
    writeOnly: annotations.writeOnly,
    nullable,
  });
}

function compact(schema: Record<string, unknown>): ManifestSchema {
  return Object.fromEntries(Object.entries(schema).filter(([, value]) => value !== undefined));
}
