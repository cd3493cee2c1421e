/**
 * The rules a schema of a spec follows beyond its shape (which `load/` checks): every `$ref` names
 * a schema, keywords sit beside a type they apply to, bounds leave room for a value, patterns
 * compile, `not` narrows something. Each problem carries its path in the spec.
 */
import {
  annotationKeywords,
  type JsonSchema,
  type JsonType,
  knownFormats,
  refPrefix,
  schemaTypes,
  specRefPrefix,
  typeKeywords,
  typesInclude,
} from '../../contract/index.js';
import type { SpecProblem } from '../load/spec-error.js';
import { patternError } from '../schema/pattern.js';
import { protocolNameProblem } from './protocol-names.js';

export type SpecPath = readonly (string | number)[];

/** The named schemas a `$ref` may name: the contract's and the spec's own. */
export interface SchemaNames {
  readonly contract: ReadonlySet<string>;
  readonly spec: ReadonlySet<string>;
}

/** The named schema a `$ref` names, or undefined when it names none. */
export function refTarget(ref: string, names: SchemaNames): { origin: 'contract' | 'spec'; name: string } | undefined {
  if (ref.startsWith(refPrefix) && names.contract.has(ref.slice(refPrefix.length))) return { origin: 'contract', name: ref.slice(refPrefix.length) };
  if (ref.startsWith(specRefPrefix) && names.spec.has(ref.slice(specRefPrefix.length))) return { origin: 'spec', name: ref.slice(specRefPrefix.length) };
  return undefined;
}

/** Keywords a `$ref` may sit beside: they describe, or (`default`, `nullable`) apply to the reference as a whole. */
const besideRef: ReadonlySet<string> = new Set(['$ref', 'default', 'nullable', ...annotationKeywords]);

const kindName: Readonly<Record<JsonType, string>> = {
  string: 'strings',
  number: 'numbers',
  integer: 'integers',
  boolean: 'booleans',
  object: 'objects',
  array: 'arrays',
  null: 'null',
};

const kindType: Readonly<Record<JsonType, string>> = {
  string: 'type: string',
  number: 'type: number or integer',
  integer: 'type: integer',
  boolean: 'type: boolean',
  object: 'type: object',
  array: 'type: array',
  null: 'type: "null"',
};

const bounds = [
  ['minLength', 'maxLength'],
  ['minItems', 'maxItems'],
  ['minProperties', 'maxProperties'],
  ['minimum', 'maximum'],
] as const;

export function checkSchema(schema: JsonSchema, path: SpecPath, names: SchemaNames, problems: SpecProblem[]): void {
  const types = schemaTypes(schema);
  if (schema.$ref !== undefined) {
    if (refTarget(schema.$ref, names) === undefined) {
      const known = [...[...names.contract].map((n) => refPrefix + n), ...[...names.spec].map((n) => specRefPrefix + n)];
      problems.push({ path: [...path, '$ref'], message: `unknown schema ${JSON.stringify(schema.$ref)}; expected one of ${known.join(', ')}` });
    }
    const others = Object.keys(schema).filter((k) => !besideRef.has(k));
    if (others.length > 0) problems.push({ path, message: `$ref cannot be combined with ${others.join(', ')}` });
  }
  const properties = Object.keys(schema.properties ?? {});
  (schema.required ?? []).forEach((name, index) => {
    if (!properties.includes(name)) {
      problems.push({ path: [...path, 'required', index], message: `${JSON.stringify(name)} is required but not in properties` });
    }
  });
  if ((schema.properties !== undefined || schema.required !== undefined) && !types.includes('object')) {
    problems.push({ path: [...path, 'type'], message: 'properties and required need type: object' });
  }
  if (schema.items !== undefined && !types.includes('array')) {
    problems.push({ path: [...path, 'type'], message: 'items needs type: array' });
  }
  for (const [keyword, kind] of Object.entries(typeKeywords) as [keyof typeof typeKeywords, JsonType][]) {
    if (keyword === 'properties' || keyword === 'required' || keyword === 'items') continue; // said above, as before
    if (schema[keyword] !== undefined && !typesInclude(types, kind)) {
      problems.push({ path: [...path, keyword], message: `${keyword} applies to ${kindName[kind]}: it needs ${kindType[kind]}` });
    }
  }
  if (schema.format !== undefined && Object.hasOwn(knownFormats, schema.format)) {
    const applies = knownFormats[schema.format]!;
    if (!applies.some((kind) => typesInclude(types, kind))) {
      problems.push({
        path: [...path, 'format'],
        message: `format ${JSON.stringify(schema.format)} applies to ${kindName[applies[0]!]}: it needs ${kindType[applies[0]!]}`,
      });
    }
  }
  if (schema.pattern !== undefined) {
    const error = patternError(schema.pattern);
    if (error !== undefined) problems.push({ path: [...path, 'pattern'], message: error });
  }
  for (const [min, max] of bounds) {
    const low = schema[min];
    const high = schema[max];
    if (low !== undefined && high !== undefined && low > high) {
      problems.push({ path: [...path, min], message: `${min} ${low} is greater than ${max} ${high}: no value can match` });
    }
  }
  if (
    schema.not !== undefined &&
    schema.$ref === undefined &&
    types.length === 0 &&
    schema.enum === undefined &&
    schema.const === undefined &&
    schema.anyOf === undefined &&
    schema.oneOf === undefined &&
    schema.allOf === undefined
  ) {
    problems.push({
      path: [...path, 'not'],
      message: 'not needs a type, $ref, enum, const, anyOf, oneOf or allOf beside it: TypeScript has no type for "anything except"',
    });
  }

  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const nameProblem = protocolNameProblem(key);
    if (nameProblem !== undefined) problems.push({ path: [...path, 'properties', key], message: `property ${nameProblem}`, atKey: true });
    checkSchema(property, [...path, 'properties', key], names, problems);
  }
  if (schema.items !== undefined) checkSchema(schema.items, [...path, 'items'], names, problems);
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    schema[keyword]?.forEach((member, i) => {
      checkSchema(member, [...path, keyword, i], names, problems);
    });
  }
  if (schema.not !== undefined) checkSchema(schema.not, [...path, 'not'], names, problems);
  if (typeof schema.additionalProperties === 'object') {
    checkSchema(schema.additionalProperties, [...path, 'additionalProperties'], names, problems);
  }
}

/** Every subschema of `schema` with its path, `schema` first (depth first, in keyword order). */
export function* subschemas(schema: JsonSchema, path: SpecPath): Generator<readonly [JsonSchema, SpecPath]> {
  yield [schema, path];
  for (const [key, property] of Object.entries(schema.properties ?? {})) yield* subschemas(property, [...path, 'properties', key]);
  if (schema.items !== undefined) yield* subschemas(schema.items, [...path, 'items']);
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const [i, member] of (schema[keyword] ?? []).entries()) yield* subschemas(member, [...path, keyword, i]);
  }
  if (schema.not !== undefined) yield* subschemas(schema.not, [...path, 'not']);
  if (typeof schema.additionalProperties === 'object') yield* subschemas(schema.additionalProperties, [...path, 'additionalProperties']);
}

/**
 * The `$ref`s of `schema` (as written), each with whether an object property, an array item or an
 * additional property lies between the schema and the reference (`guarded`): a cycle of
 * references with none in between would describe a value that contains itself.
 */
export function* references(schema: JsonSchema, guarded = false): Generator<{ readonly ref: string; readonly guarded: boolean }> {
  if (schema.$ref !== undefined) yield { ref: schema.$ref, guarded };
  for (const property of Object.values(schema.properties ?? {})) yield* references(property, true);
  if (schema.items !== undefined) yield* references(schema.items, true);
  if (typeof schema.additionalProperties === 'object') yield* references(schema.additionalProperties, true);
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const member of schema[keyword] ?? []) yield* references(member, guarded);
  }
  if (schema.not !== undefined) yield* references(schema.not, guarded);
}
