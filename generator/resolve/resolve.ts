/**
 * Resolve: a loaded spec + the contract data → one immutable `Model`. Merges the standard surface,
 * applies `include`, checks names, modes and `$ref`s, derives the names of generated code and
 * proves them unique. Every problem is reported with its path in the spec.
 */
import { createHash } from 'node:crypto';
import {
  agentAppSurface,
  apiModeRouting,
  apiModes,
  contractSchemas,
  refPrefix,
  type JsonSchema,
  type SurfaceOperation,
} from '../../spec/index.js';
import { camelCase, objectPrototypeNames, pascalCase, reservedWords } from '../emit/escape.js';
import type { LoadedSpec } from '../load/load-spec.js';
import type { OperationSpec, RuntimeMode } from '../load/spec-format.js';
import { SpecError, type SpecProblem } from '../load/spec-error.js';
import type { Model, NamedSchema, OperationModel } from '../model.js';
import { generatorVersion } from '../version.js';
import { builtInClientMembers, fixedTypeNames } from './fixed-names.js';

const operationNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;
const anyJson: JsonSchema = {};
const anyKeywordArguments: JsonSchema = { type: 'object', additionalProperties: true };

export interface ResolveOptions {
  /** Overrides the spec's `runtime` (the CLI's `--runtime`). */
  readonly runtime?: RuntimeMode | undefined;
}

export function resolve(loaded: LoadedSpec, options: ResolveOptions = {}): Model {
  const problems: SpecProblem[] = [];
  const doc = loaded.document;
  const useSurface = doc === undefined || doc.surface === 'agent-app';
  const surface = useSurface ? includedSurface(doc?.include, problems) : [];
  if (!useSurface && doc?.include !== undefined) {
    problems.push({ path: ['include'], message: 'include needs `surface: agent-app`: it selects operations of the surface' });
  }

  const operations: OperationModel[] = surface.map((op) => fromSurface(op, doc?.operations?.[op.name]));
  for (const [name, spec] of Object.entries(doc?.operations ?? {})) {
    const path = ['operations', name];
    if (!checkOperationName(name, path, problems)) continue;
    const base = useSurface ? agentAppSurface.find((op) => op.name === name) : undefined;
    if (base !== undefined && operations.some((op) => op.name === name)) continue; // an override, merged above
    if (base !== undefined) {
      operations.push(fromSurface(base, spec)); // overrides bring back an operation left out by `include`
    } else if (spec.api_mode === undefined) {
      problems.push({ path: [...path, 'api_mode'], message: `missing; expected one of ${apiModes.map((m) => JSON.stringify(m)).join(', ')}` });
    } else {
      operations.push(custom(name, spec, spec.api_mode));
    }
  }
  if (operations.length === 0 && problems.length === 0) {
    problems.push({ path: [], message: 'the spec declares no operations: add `surface: agent-app` or `operations`' });
  }

  const schemaNames = new Set(contractSchemas.map(([name]) => name));
  operations.forEach((op) => {
    const path = ['operations', op.name];
    checkSchema(op.input, [...path, 'input'], schemaNames, problems);
    checkSchema(op.output, [...path, 'output'], schemaNames, problems);
    if (op.input.type !== 'object' || op.input.nullable) {
      problems.push({ path: [...path, 'input', 'type'], message: 'expected "object": input holds keyword arguments' });
    }
  });
  checkDerivedNames(operations, problems);
  if (problems.length > 0) throw new SpecError(loaded.source, problems, loaded.locate);

  const schemas: NamedSchema[] = contractSchemas.map(([name, schema]) => ({ name, schemaConst: camelCase(name), schema }));
  const name = doc?.name ?? 'agent-app';
  const runtime = options.runtime ?? doc?.runtime ?? 'package';
  return deepFreeze({
    name,
    source: loaded.source,
    hash: modelHash({ name, runtime, schemas, operations }),
    generatorVersion,
    runtime,
    schemas,
    operations,
  });
}

function includedSurface(include: readonly string[] | undefined, problems: SpecProblem[]): readonly SurfaceOperation[] {
  if (include === undefined) return agentAppSurface;
  const seen = new Set<string>();
  include.forEach((name, index) => {
    if (!agentAppSurface.some((op) => op.name === name)) {
      problems.push({
        path: ['include', index],
        message: `${JSON.stringify(name)} is not an operation of the agent-app surface; expected one of ${agentAppSurface.map((op) => op.name).join(', ')}`,
      });
    } else if (seen.has(name)) {
      problems.push({ path: ['include', index], message: `${JSON.stringify(name)} is listed twice` });
    }
    seen.add(name);
  });
  return agentAppSurface.filter((op) => seen.has(op.name));
}

function fromSurface(op: SurfaceOperation, override: OperationSpec | undefined): OperationModel {
  const mode = override?.api_mode ?? op.api_mode;
  return operation(op.name, mode, 'surface', {
    description: override?.description ?? op.description,
    deprecated: override?.deprecated === undefined ? op.deprecated : deprecation(override.deprecated),
    input: override?.input ?? op.input,
    output: override?.output ?? op.output,
  });
}

function custom(name: string, spec: OperationSpec, mode: OperationModel['apiMode']): OperationModel {
  return operation(name, mode, 'custom', {
    description: spec.description ?? '',
    deprecated: deprecation(spec.deprecated),
    input: spec.input ?? anyKeywordArguments,
    output: spec.output ?? anyJson,
  });
}

function operation(
  name: string,
  apiMode: OperationModel['apiMode'],
  origin: OperationModel['origin'],
  parts: Pick<OperationModel, 'description' | 'deprecated' | 'input' | 'output'>,
): OperationModel {
  const routing = apiModeRouting[apiMode];
  const pascal = pascalCase(name);
  const outputSuffix = routing.response === 'stream' ? 'Event' : 'Result';
  return {
    name,
    apiMode,
    routing,
    origin,
    ...parts,
    names: {
      pascal,
      inputType: `${pascal}Input`,
      outputType: `${pascal}${outputSuffix}`,
      inputSchema: camelCase(`${pascal}Input`),
      outputSchema: camelCase(`${pascal}${outputSuffix}`),
    },
  };
}

function deprecation(value: string | boolean | undefined): string | undefined {
  if (value === undefined || value === false) return undefined;
  return value === true ? 'Deprecated.' : value;
}

function checkOperationName(name: string, path: string[], problems: SpecProblem[]): boolean {
  let message: string | undefined;
  if (!operationNamePattern.test(name)) message = 'an operation name must match ^[A-Za-z_][A-Za-z0-9_]*$';
  else if (objectPrototypeNames.has(name)) message = `${JSON.stringify(name)} is a name every JavaScript object has; choose another`;
  else if (reservedWords.has(name)) message = `${JSON.stringify(name)} is a reserved word; choose another`;
  else if (builtInClientMembers.has(name)) message = `${JSON.stringify(name)} is a built-in method of the generated client; choose another`;
  if (message !== undefined) problems.push({ path, message });
  return message === undefined;
}

function checkDerivedNames(operations: readonly OperationModel[], problems: SpecProblem[]): void {
  const taken = new Map<string, string>(fixedTypeNames.map((n) => [n, 'a name agentgen emits']));
  for (const [name] of contractSchemas) taken.set(name, 'a contract schema');
  for (const op of operations) {
    for (const derived of [op.names.inputType, op.names.outputType]) {
      if (!/^[A-Za-z_$]/.test(derived)) {
        problems.push({ path: ['operations', op.name], message: `gives the type name ${derived}, which is not an identifier; choose another name` });
        continue;
      }
      const owner = taken.get(derived);
      if (owner !== undefined) {
        problems.push({
          path: ['operations', op.name],
          message: `gives the type name ${derived}, which is already ${owner}; choose another name`,
        });
      }
      taken.set(derived, `the type of operation ${JSON.stringify(op.name)}`);
    }
  }
}

function checkSchema(schema: JsonSchema, path: (string | number)[], names: ReadonlySet<string>, problems: SpecProblem[]): void {
  if (schema.$ref !== undefined) {
    const target = schema.$ref.startsWith(refPrefix) ? schema.$ref.slice(refPrefix.length) : undefined;
    if (target === undefined || !names.has(target)) {
      problems.push({
        path: [...path, '$ref'],
        message: `unknown schema ${JSON.stringify(schema.$ref)}; expected one of ${[...names].map((n) => refPrefix + n).join(', ')}`,
      });
    }
    const others = Object.keys(schema).filter((k) => k !== '$ref' && k !== 'description' && k !== 'nullable');
    if (others.length > 0) problems.push({ path, message: `$ref cannot be combined with ${others.join(', ')}` });
  }
  const kinds = [schema.$ref !== undefined, schema.anyOf !== undefined, schema.enum !== undefined].filter(Boolean).length;
  if (kinds > 1) problems.push({ path, message: 'use only one of $ref, anyOf and enum in one schema' });
  const properties = Object.keys(schema.properties ?? {});
  (schema.required ?? []).forEach((name, index) => {
    if (!properties.includes(name)) {
      problems.push({ path: [...path, 'required', index], message: `${JSON.stringify(name)} is required but not in properties` });
    }
  });
  if ((schema.properties !== undefined || schema.required !== undefined) && schema.type !== 'object') {
    problems.push({ path: [...path, 'type'], message: 'properties and required need type: object' });
  }
  if (schema.items !== undefined && schema.type !== 'array') {
    problems.push({ path: [...path, 'type'], message: 'items needs type: array' });
  }
  for (const [key, property] of Object.entries(schema.properties ?? {})) checkSchema(property, [...path, 'properties', key], names, problems);
  if (schema.items !== undefined) checkSchema(schema.items, [...path, 'items'], names, problems);
  schema.anyOf?.forEach((member, i) => checkSchema(member, [...path, 'anyOf', i], names, problems));
  if (typeof schema.additionalProperties === 'object') {
    checkSchema(schema.additionalProperties, [...path, 'additionalProperties'], names, problems);
  }
}

/** Canonical JSON (sorted keys) of what the output depends on, hashed. */
function modelHash(meaning: Pick<Model, 'name' | 'runtime' | 'schemas' | 'operations'>): string {
  const canonical = JSON.stringify({ ...meaning, generatorVersion }, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
  return createHash('sha256').update(canonical).digest('hex').slice(0, 12);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
