/**
 * `runConformance`: a black-box check of a running container against the container contract
 * (the two fixed routes, the envelope, streaming), the reference platform's behaviour, the spec's
 * schemas and agentgen's conventions. Cases run one after another (a container under test should
 * see one probe at a time), in a fixed order, with inputs built deterministically from the
 * schemas, so two runs give the same report.
 */
import { agentAppSurface, contractSchemas, isApiMode, type JsonSchema } from '../contract/index.js';
import { a2aCases } from './cases-a2a.js';
import { probeCases, stillServingCase, undeclaredCases } from './cases-dispatch.js';
import { doubleEncodingCases, httpCases, missingInputCase } from './cases-envelope.js';
import { errorShapeCase } from './cases-errors.js';
import { operationCases } from './cases-operations.js';
import { forwardedContentTypeCases, livenessCases } from './cases-platform.js';
import { disconnectCase, streamCases, unaryCases } from './cases-results.js';
import { withContractInputs } from './contract-inputs.js';
import { clip, Observer } from './observe.js';
import { type SchemaCheck, schemaChecks } from './schema-check.js';
import { type PlannedInput, type RunState, routesInUse, undeclaredName } from './state.js';
import type { CaseResult, CheckedEntry, ConformanceOperation, ConformanceOptions } from './types.js';
import { buildValue } from './valid-input.js';

/** The thirteen operations of the contract (`agent-app@1`), with their input and result schemas. */
export const standardOperations: readonly CheckedEntry[] = agentAppSurface.map((op) => ({
  name: op.name,
  api_mode: op.api_mode,
  input: op.input,
  output: op.output,
}));

export async function runConformance(options: ConformanceOptions): Promise<CaseResult[]> {
  const operations = checkOperations(options.operations ?? standardOperations);
  const base = checkUrl(options.url);
  const named = namedSchemas(options.schemas);
  const checks = schemaChecks(named);
  const state: RunState = {
    observer: new Observer(base, options.timeoutMs ?? 10_000),
    operations,
    inputs: new Map(operations.map((op) => [op.name, planInput(op, sampleOf(options.samples, op.name), named, checks)])),
    outputChecks: outputChecks(operations, checks),
    routes: routesInUse(operations),
    undeclaredName,
    unknownAnswers: new Map(),
    runnable: new Map(),
    unaryAnswers: new Map(),
  };
  const results: CaseResult[] = [];
  // The undeclared name first: later cases compare against the container's unknown-operation answer.
  results.push(...(await undeclaredCases(state)));
  results.push(...(await httpCases(state)));
  results.push(...(await doubleEncodingCases(state)));
  results.push(...(await forwardedContentTypeCases(state)));
  results.push(...(await livenessCases(state)));
  results.push(await missingInputCase(state));
  results.push(...(await operationCases(state)));
  results.push(...unaryCases(state));
  results.push(...(await streamCases(state)));
  results.push(...(await disconnectCase(state)));
  if (options.a2a !== undefined) results.push(...(await a2aCases(state, options.a2a)));
  // The dispatch probes last: one that reaches a method may change or break the container.
  results.push(...(await probeCases(state)));
  results.push(errorShapeCase(state));
  results.push(await stillServingCase(state, 'still serving after all cases'));
  return results;
}

/** True when no case is a violation; with `strict`, when no case is advice either. Not checked never fails a run. */
export function conformancePassed(results: readonly CaseResult[], strict = false): boolean {
  return results.every((r) => r.status !== 'fail' && !(strict && r.status === 'advice'));
}

/** Own keys only: an operation named `constructor` has no sample unless one is given. */
function sampleOf(samples: ConformanceOptions['samples'], name: string): Readonly<Record<string, unknown>> | undefined {
  return samples !== undefined && Object.hasOwn(samples, name) ? samples[name] : undefined;
}

/** The input of an operation's success path: its sample, else one built from its schema and checked against it. */
function planInput(
  op: CheckedEntry,
  sample: Readonly<Record<string, unknown>> | undefined,
  named: (name: string) => JsonSchema | undefined,
  checks: (schema: JsonSchema) => SchemaCheck | undefined,
): PlannedInput {
  if (sample !== undefined) return { input: sample, from: 'sample' };
  const schema = op.input ?? (op.parameters as JsonSchema | undefined);
  if (schema === undefined) return { input: {}, from: 'nothing' };
  const built = buildValue(schema, named);
  if ('unavailable' in built) return built;
  const { value } = built;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { unavailable: 'the input schema does not describe an object' };
  const input = withContractInputs(op.name, value as Record<string, unknown>, schema, checks);
  const problem = checkOf(op, 'input', schema, checks)?.(input);
  // Clipped as every input quoted in the report: a built input may be up to the builder's cap (1 MiB).
  if (problem !== undefined) return { unavailable: `the input built from the schema, ${clip(JSON.stringify(input), 400)}, does not match it: ${problem}` };
  return { input, from: 'schema' };
}

function outputChecks(operations: readonly CheckedEntry[], checks: (schema: JsonSchema) => SchemaCheck | undefined): Map<string, SchemaCheck> {
  const found = new Map<string, SchemaCheck>();
  for (const op of operations) {
    const check = op.output === undefined ? undefined : checkOf(op, 'output', op.output, checks);
    if (check !== undefined) found.set(op.name, check);
  }
  return found;
}

function checkOf(op: CheckedEntry, what: string, schema: JsonSchema, checks: (schema: JsonSchema) => SchemaCheck | undefined): SchemaCheck | undefined {
  try {
    return checks(schema);
  } catch (error) {
    throw new Error(`conformance: the ${what} schema of ${op.name} cannot be checked: ${(error as Error).message}`);
  }
}

/** The contract's named schemas, and the caller's (which may add to them). */
function namedSchemas(given: Readonly<Record<string, JsonSchema>> | undefined): (name: string) => JsonSchema | undefined {
  const all = new Map<string, JsonSchema>(contractSchemas.map(([name, schema]) => [name, schema]));
  for (const [name, schema] of Object.entries(given ?? {})) all.set(name, schema);
  return (name) => all.get(name);
}

function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`conformance: --url must be an absolute http(s) URL, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`conformance: --url must use http or https, got ${JSON.stringify(parsed.protocol)}`);
  }
  return parsed.origin;
}

function checkOperations(operations: readonly ConformanceOperation[]): readonly CheckedEntry[] {
  const seen = new Set<string>();
  for (const [index, op] of operations.entries()) {
    if (typeof op.name !== 'string' || op.name === '') {
      throw new Error(`conformance: operations[${index}].name must be a non-empty string`);
    }
    if (!isApiMode(op.api_mode)) {
      throw new Error(
        `conformance: operations[${index}] (${op.name}) has api_mode ${JSON.stringify(op.api_mode)}; ` +
          'expected one of "", "async", "stream", "async_stream"',
      );
    }
    if (seen.has(op.name)) throw new Error(`conformance: operation ${op.name} is declared twice`);
    seen.add(op.name);
  }
  return operations as readonly CheckedEntry[];
}
