/**
 * Resolve: a loaded spec + the contract data → one immutable `Model`. Merges the standard surface,
 * applies `include`, checks names, modes and `$ref`s, derives the names of generated code and
 * proves them unique. Every problem is reported with its path in the spec.
 */
import { createHash } from 'node:crypto';
import {
  apiModeRouting,
  apiModes,
  contractSchemas,
  type JsonSchema,
  type SurfaceOperation,
  schemaTypes,
  surfaceName,
  surfaceOperations,
} from '../../contract/index.js';
import type { LoadedSpec } from '../load/load-spec.js';
import { inTextOrder, SpecError, type SpecProblem } from '../load/spec-error.js';
import type { ImportExtension, OperationSpec, RuntimeMode, UiProtocol } from '../load/spec-format.js';
import type { Model, NamedSchema, OperationModel } from '../model.js';
import { camelCase, pascalCase, reservedWords } from '../schema/escape.js';
import { plainNames, type TsContext, tsType } from '../schema/to-ts.js';
import { generatorVersion } from '../version.js';
import { resolveA2A } from './a2a-face.js';
import { checkSchema, type SchemaNames, type SpecPath } from './check-schema.js';
import { checkValues } from './check-values.js';
import { resolveDeploy } from './deploy-config.js';
import { builtInClientMembers, fixedTypeNames } from './fixed-names.js';
import { checkManifestSize } from './manifest-size.js';
import { checkSchemaName, checkUnguardedCycles, components, isCycle, specReferences, specSchemaConst, toModelSchema } from './named-schemas.js';
import { protocolNameProblem } from './protocol-names.js';
import { uiStreamOf } from './ui-streams.js';

const operationNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;
const anyJson: JsonSchema = {};
const anyKeywordArguments: JsonSchema = { type: 'object', additionalProperties: true };

export interface ResolveOptions {
  /** Overrides the spec's `runtime` (the CLI's `--runtime`). */
  readonly runtime?: RuntimeMode | undefined;
  /** Overrides the spec's `import_extension` (the CLI's `--import-extension`). */
  readonly importExtension?: ImportExtension | undefined;
  /** Used when neither the option nor the spec says (the CLI's, from the project's tsconfig); default `js`. */
  readonly defaultImportExtension?: ImportExtension | undefined;
}

export function resolve(loaded: LoadedSpec, options: ResolveOptions = {}): Model {
  const problems: SpecProblem[] = [];
  const doc = loaded.document;
  // No spec file: the standard surface. `surface:` names a version; the loader has checked the name.
  const surfaceId = doc === undefined ? surfaceName : doc.surface;
  const standard = surfaceId === undefined ? [] : (surfaceOperations(surfaceId) ?? []);
  const useSurface = surfaceId !== undefined;
  const surface = useSurface ? includedSurface(standard, surfaceId, doc?.include, problems) : [];
  if (!useSurface && doc?.include !== undefined) {
    problems.push({ path: ['include'], message: 'include needs a surface (`surface: agent-app@2`): it selects operations of the surface' });
  }

  const operations: OperationModel[] = surface.map((op) => fromSurface(op, doc?.operations?.[op.name]));
  /** Custom operations without an api_mode: not operations of the model, but their schemas are checked too. */
  const withoutMode: [JsonSchema, SpecPath][] = [];
  for (const [name, spec] of Object.entries(doc?.operations ?? {})) {
    const path = ['operations', name];
    if (!checkOperationName(name, path, problems)) continue;
    const base = standard.find((op) => op.name === name);
    if (base !== undefined && operations.some((op) => op.name === name)) continue; // an override, merged above
    if (base !== undefined) {
      operations.push(fromSurface(base, spec)); // overrides bring back an operation left out by `include`
    } else if (spec.api_mode === undefined) {
      problems.push({ path: [...path, 'api_mode'], message: `missing; expected one of ${apiModes.map((m) => JSON.stringify(m)).join(', ')}` });
      if (spec.input !== undefined) withoutMode.push([spec.input, [...path, 'input']]);
      if (spec.output !== undefined) withoutMode.push([spec.output, [...path, 'output']]);
    } else {
      operations.push(custom(name, spec, spec.api_mode));
    }
  }
  if (operations.length === 0 && problems.length === 0) {
    problems.push({ path: [], message: 'the spec declares no operations: add `surface: agent-app@2` or `operations`' });
  }

  const specSchemas = new Map<string, JsonSchema>();
  for (const [schemaName, schema] of Object.entries(doc?.schemas ?? {})) {
    if (checkSchemaName(schemaName, problems)) specSchemas.set(schemaName, schema);
  }
  const names: SchemaNames = { contract: new Set(contractSchemas.map(([n]) => n)), spec: new Set(specSchemas.keys()) };
  // Every schema of the spec with its path: the named ones, then each operation's input and output.
  const roots: [JsonSchema, SpecPath][] = [
    ...[...specSchemas].map(([schemaName, schema]): [JsonSchema, SpecPath] => [schema, ['schemas', schemaName]]),
    ...operations.flatMap((op): [JsonSchema, SpecPath][] => [
      [op.input, ['operations', op.name, 'input']],
      [op.output, ['operations', op.name, 'output']],
    ]),
    ...withoutMode,
  ];
  for (const [schema, path] of roots) checkSchema(schema, path, names, problems);
  operations.forEach((op) => {
    const types = schemaTypes(op.input);
    if (types.length === 0 || types.some((type) => type !== 'object') || op.input.nullable) {
      problems.push({ path: ['operations', op.name, 'input', 'type'], message: 'expected "object": input holds keyword arguments' });
    }
  });
  checkUnguardedCycles(specSchemas, names, problems);

  // Values against their schemas, with every `$ref` in model form (a spec's `#/schemas/X` is `#/components/schemas/X`).
  const modelRoots = roots.map(([schema, path]) => [toModelSchema(schema, path, new Map()), path] as const);
  const lookup = new Map<string, JsonSchema>(contractSchemas);
  for (const [schema, path] of modelRoots) if (path[0] === 'schemas') lookup.set(String(path[1]), schema);
  const defaults = checkValues(modelRoots, (n) => lookup.get(n), problems);

  const schemas = problems.length === 0 ? namedSchemas(specSchemas, names, defaults) : [];
  const resolved = operations.map((op) => ({
    ...op,
    input: toModelSchema(op.input, ['operations', op.name, 'input'], defaults),
    output: toModelSchema(op.output, ['operations', op.name, 'output'], defaults),
  }));
  const withNames = problems.length === 0 ? resolved.map((op) => withCallInputType(op, schemas)) : resolved;
  const specNames = schemas.length > 0 ? schemas.filter((s) => s.origin === 'spec') : [...specSchemas.keys()].map((n) => ({ name: n, inputName: n }));
  checkDerivedNames(withNames, specNames, problems);
  // The deploy section is checked with the rest (its `${VAR}` values once they are filled in), but
  // stays out of the model: deploy settings never change generated code.
  if (doc?.deploy !== undefined) resolveDeploy(doc, undefined, problems);
  if (problems.length > 0) throw new SpecError(loaded.source, inTextOrder(problems, loaded.locate), loaded.locate);

  const name = doc?.name ?? 'agent-app';
  const runtime = options.runtime ?? doc?.runtime ?? 'package';
  const importExtension = options.importExtension ?? doc?.import_extension ?? options.defaultImportExtension ?? 'js';
  const license = doc === undefined ? standardSurfaceLicense : doc.license;
  const ui = [...new Set(doc?.ui ?? [])].sort();
  checkUi(ui, runtime, withNames, problems);
  const a2a = resolveA2A(doc?.a2a, name, withNames, problems);
  if (problems.length > 0) throw new SpecError(loaded.source, inTextOrder(problems, loaded.locate), loaded.locate);
  const model = deepFreeze({
    name,
    source: loaded.source,
    // `ui`, `importExtension` and `a2a` count only when set, so a spec without them keeps its hash.
    hash: modelHash({
      name,
      runtime,
      schemas,
      operations: withNames,
      license,
      ...(ui.length > 0 ? { ui } : {}),
      ...(importExtension !== 'js' ? { importExtension } : {}),
      ...(a2a === undefined ? {} : { a2a }),
    }),
    generatorVersion,
    runtime,
    importExtension,
    ui,
    a2a,
    schemas,
    operations: withNames,
    license,
  });
  // Every other output refers to a named schema by name; the manifest writes them out, so it is measured.
  checkManifestSize(model, problems);
  if (problems.length > 0) throw new SpecError(loaded.source, problems, loaded.locate);
  return model;
}

/**
 * The named schemas of the model: the contract's, then the spec's in dependency order, each with
 * its cycle (for `z.lazy`) and the name of its input form when a default inside makes one.
 */
function namedSchemas(specSchemas: ReadonlyMap<string, JsonSchema>, names: SchemaNames, defaults: ReadonlyMap<string, unknown>): NamedSchema[] {
  const contract: NamedSchema[] = contractSchemas.map(([name, schema]) => ({
    name,
    inputName: name,
    schemaConst: camelCase(name),
    schema,
    origin: 'contract',
    cycle: [],
  }));
  const order = [...specSchemas.keys()];
  const edges = new Map(order.map((name) => [name, specReferences(specSchemas.get(name)!, names, true)] as const));
  const spec: NamedSchema[] = components(order, edges).flatMap((component) =>
    component.map((name) => ({
      name,
      inputName: name,
      schemaConst: specSchemaConst(name),
      schema: toModelSchema(specSchemas.get(name)!, ['schemas', name], defaults),
      origin: 'spec' as const,
      cycle: isCycle(component, edges) ? component : [],
    })),
  );
  // The input form's name, where a default inside (or in a schema referred to) makes the forms differ; to a fixed point, for cycles.
  const inputNames = new Map(spec.map((s) => [s.name, s.name]));
  const input: TsContext = { form: 'input', named: (n) => inputNames.get(n) ?? n };
  for (let changed = true; changed;) {
    changed = false;
    for (const s of spec) {
      if (inputNames.get(s.name) === s.name && tsType(s.schema, plainNames) !== tsType(s.schema, input)) {
        inputNames.set(s.name, `${s.name}Input`);
        changed = true;
      }
    }
  }
  return [...contract, ...spec.map((s) => ({ ...s, inputName: inputNames.get(s.name)! }))];
}

/** The caller's input type gets a name of its own when it differs from the handler's (a default inside). */
function withCallInputType(op: OperationModel, schemas: readonly NamedSchema[]): OperationModel {
  const inputNames = new Map(schemas.map((s) => [s.name, s.inputName]));
  const value = tsType(op.input, plainNames);
  const input = tsType(op.input, { form: 'input', named: (n) => inputNames.get(n) ?? n });
  return value === input ? op : { ...op, names: { ...op.names, callInputType: `${op.names.pascal}CallInput` } };
}

function includedSurface(
  standard: readonly SurfaceOperation[],
  surfaceId: string,
  include: readonly string[] | undefined,
  problems: SpecProblem[],
): readonly SurfaceOperation[] {
  if (include === undefined) return standard;
  const seen = new Set<string>();
  include.forEach((name, index) => {
    if (!standard.some((op) => op.name === name)) {
      problems.push({
        path: ['include', index],
        message: `${JSON.stringify(name)} is not an operation of the ${surfaceId} surface; expected one of ${standard.map((op) => op.name).join(', ')}`,
      });
    } else if (seen.has(name)) {
      problems.push({ path: ['include', index], message: `${JSON.stringify(name)} is listed twice` });
    }
    seen.add(name);
  });
  return standard.filter((op) => seen.has(op.name));
}

function fromSurface(op: SurfaceOperation, override: OperationSpec | undefined): OperationModel {
  const mode = override?.api_mode ?? op.api_mode;
  return operation(op.name, mode, 'surface', {
    description: override?.description ?? op.description,
    deprecated: override?.deprecated === undefined ? op.deprecated : deprecation(override.deprecated),
    input: override?.input ?? op.input,
    output: override?.output ?? op.output,
    // The reference catalogue's form of the arguments holds only while the spec keeps them.
    ...(override?.input === undefined ? { parameters: op.parameters } : {}),
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
  parts: Pick<OperationModel, 'description' | 'deprecated' | 'input' | 'output' | 'parameters'>,
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
      callInputType: `${pascal}Input`,
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
  const message = !operationNamePattern.test(name)
    ? 'an operation name must match ^[A-Za-z_][A-Za-z0-9_]*$'
    : (protocolNameProblem(name) ??
      (reservedWords.has(name)
        ? `${JSON.stringify(name)} is a reserved word; choose another`
        : builtInClientMembers.has(name)
          ? `${JSON.stringify(name)} is a built-in method of the generated client; choose another`
          : undefined));
  if (message !== undefined) problems.push({ path, message, atKey: true });
  return message === undefined;
}

function checkDerivedNames(operations: readonly OperationModel[], schemas: readonly Pick<NamedSchema, 'name' | 'inputName'>[], problems: SpecProblem[]): void {
  const taken = new Map<string, string>(fixedTypeNames.map((n) => [n, 'a name agentgen emits']));
  for (const [name] of contractSchemas) taken.set(name, 'a contract schema');
  const claim = (derived: string, owner: string, path: SpecPath, what: string) => {
    const existing = taken.get(derived);
    if (existing !== undefined) problems.push({ path, message: `${what} ${derived}, which is already ${existing}; choose another name` });
    else taken.set(derived, owner);
  };
  const consts = new Map<string, string>();
  for (const schema of schemas) {
    if (taken.get(schema.name) === 'a contract schema') {
      problems.push({
        path: ['schemas', schema.name],
        message: `${JSON.stringify(schema.name)} is a schema of the contract (#/components/schemas/${schema.name}); choose another name`,
      });
      continue;
    }
    const owner = `the schema ${JSON.stringify(schema.name)}`;
    claim(schema.name, owner, ['schemas', schema.name], 'is the type name');
    if (schema.inputName !== schema.name) claim(schema.inputName, `the input form of ${owner}`, ['schemas', schema.name], 'gives the type name');
    const schemaConst = specSchemaConst(schema.name);
    const other = consts.get(schemaConst);
    if (other !== undefined) {
      problems.push({
        path: ['schemas', schema.name],
        message: `gives the zod schema name ${schemaConst}, which is already the schema ${JSON.stringify(other)}'s; choose another name`,
      });
    }
    consts.set(schemaConst, schema.name);
  }
  for (const op of operations) {
    const derivedNames = [...new Set([op.names.inputType, op.names.callInputType, op.names.outputType])];
    for (const derived of derivedNames) {
      if (!/^[A-Za-z_$]/.test(derived)) {
        problems.push({ path: ['operations', op.name], message: `gives the type name ${derived}, which is not an identifier; choose another name` });
        continue;
      }
      claim(derived, `the type of operation ${JSON.stringify(op.name)}`, ['operations', op.name], 'gives the type name');
    }
  }
}

/** Canonical JSON (sorted keys) of what the output depends on, hashed. */
/**
 * `ui` needs the runtime package (a `runtime: bundle` copy leaves the UI adapters out, as they load
 * optional peers) and a streaming operation whose events are ADK events for `ui.ts` to speak of.
 */
function checkUi(ui: readonly UiProtocol[], runtime: RuntimeMode, operations: readonly OperationModel[], problems: SpecProblem[]): void {
  if (ui.length === 0) return;
  if (runtime === 'bundle')
    problems.push({ path: ['ui'], message: 'ui needs the runtime package (runtime: package): a runtime: bundle copy leaves the UI adapters out' });
  else if (!operations.some((op) => uiStreamOf(op) !== undefined)) {
    problems.push({
      path: ['ui'],
      message: "ui speaks of streaming operations whose events are ADK events (the contract's Event, or the handoff envelope); this spec declares none",
    });
  }
}

/** The standard surface is agentgen's own definition, under agentgen's licence (LICENSE). */
const standardSurfaceLicense = { name: 'Apache 2.0', identifier: 'Apache-2.0' } as const;

function modelHash(
  meaning: Pick<Model, 'name' | 'runtime' | 'schemas' | 'operations' | 'license'> & {
    readonly ui?: Model['ui'];
    readonly importExtension?: ImportExtension;
    readonly a2a?: Model['a2a'];
  },
): string {
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
