/**
 * `runConformance`: a black-box check of a running container against the container contract
 * (the two fixed routes, the envelope, streaming) and agentgen's error rules. Cases run one after another (a container under test
 * should see one probe at a time), in a fixed order, so two runs give the same table.
 */
import { agentAppSurface, isApiMode, type ManifestEntry } from '../spec/index.js';
import { dispatchCases, doubleEncodingCases, httpCases, missingInputCase } from './cases-envelope.js';
import { errorShapeCase, stillServingCase } from './cases-errors.js';
import { operationCases } from './cases-operations.js';
import { disconnectCases, streamFramingCases, unaryOutputCase } from './cases-results.js';
import { Observer } from './observe.js';
import { routesInUse, undeclaredName, type RunState } from './state.js';
import type { CaseResult, CheckedEntry, ConformanceOptions } from './types.js';

export const standardOperations: readonly CheckedEntry[] = agentAppSurface.map((op) => ({
  name: op.name,
  api_mode: op.api_mode,
}));

export async function runConformance(options: ConformanceOptions): Promise<CaseResult[]> {
  const operations = checkOperations(options.operations ?? standardOperations);
  const base = checkUrl(options.url);
  const state: RunState = {
    observer: new Observer(base, options.timeoutMs ?? 10_000),
    operations,
    samples: options.samples ?? {},
    routes: routesInUse(operations),
    undeclaredName,
    unknownAnswers: new Map(),
    runnable: new Map(),
    unaryAnswers: new Map(),
  };
  const results: CaseResult[] = [];
  // Dispatch first: later cases compare against the container's unknown-operation answer.
  results.push(...(await dispatchCases(state)));
  results.push(...(await httpCases(state)));
  results.push(...(await doubleEncodingCases(state)));
  results.push(await missingInputCase(state));
  results.push(...(await operationCases(state)));
  results.push(unaryOutputCase(state));
  results.push(...(await streamFramingCases(state)));
  results.push(...(await disconnectCases(state)));
  results.push(errorShapeCase(state));
  results.push(await stillServingCase(state));
  return results;
}

/** True when no case failed (not-checked cases do not fail a run, and are listed as such). */
export function conformancePassed(results: readonly CaseResult[]): boolean {
  return results.every((r) => r.status !== 'fail');
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

function checkOperations(operations: readonly ManifestEntry[]): readonly CheckedEntry[] {
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
