/** What the cases of one run share: the observer, the declared operations, and what earlier cases learned. */
import { apiModeRouting, streamContainerRoute, unaryContainerRoute } from '../contract/index.js';
import type { ProbeResponse } from './http.js';
import { envelopeBody, type Observation, type Observer, signature } from './observe.js';
import { type RuleName, rules } from './rules.js';
import type { SchemaCheck } from './schema-check.js';
import type { CaseResult, CaseStatus, CheckedEntry } from './types.js';

/**
 * The input the success path uses for one operation: a sample, one built from its schema, `{}`
 * when no schema is known (`nothing`), or why none could be built.
 */
export type PlannedInput =
  { readonly input: Readonly<Record<string, unknown>>; readonly from: 'sample' | 'schema' | 'nothing' } | { readonly unavailable: string };

export interface RunState {
  readonly observer: Observer;
  readonly operations: readonly CheckedEntry[];
  /** By operation name. */
  readonly inputs: ReadonlyMap<string, PlannedInput>;
  /** By operation name: the check of a result or event, when the operation declares an output schema. */
  readonly outputChecks: ReadonlyMap<string, SchemaCheck>;
  /** Routes the declared operations need; a container may serve only these. */
  readonly routes: readonly string[];
  /** A name no container declares, used to learn how this container answers unknown operations. */
  readonly undeclaredName: string;
  /** The container's answer to `undeclaredName`, per route. */
  readonly unknownAnswers: Map<string, Observation>;
  /** Operations that answered 2xx on their route, with the input that did it. */
  readonly runnable: Map<string, Readonly<Record<string, unknown>>>;
  /** The 2xx answers of unary operations, for the `{"output"}` and output-schema cases. */
  readonly unaryAnswers: Map<string, ProbeResponse>;
}

export const undeclaredName = 'agentgen_conformance_undeclared';

export function routeOf(operation: CheckedEntry): string {
  return apiModeRouting[operation.api_mode].containerRoute;
}

export function otherRoute(route: string): string {
  return route === unaryContainerRoute ? streamContainerRoute : unaryContainerRoute;
}

export function isStream(operation: CheckedEntry): boolean {
  return routeOf(operation) === streamContainerRoute;
}

export function routesInUse(operations: readonly CheckedEntry[]): string[] {
  const used = new Set(operations.map(routeOf));
  // With nothing declared there is nothing to narrow by: check both routes.
  if (used.size === 0) return [unaryContainerRoute, streamContainerRoute];
  return [unaryContainerRoute, streamContainerRoute].filter((route) => used.has(route));
}

/**
 * How a case came out: `pass`; `broken` (the rule is broken: a violation or advice, by the rule's
 * grade); `advice` (a convention beside the rule is not kept, whatever the rule's grade);
 * `not-checked` (with the reason as the observation).
 */
export type Verdict = 'pass' | 'broken' | 'advice' | 'not-checked';

export interface CaseOptions {
  /** The case needs a successful call. */
  readonly successPath?: boolean;
}

export function result(name: string, rule: RuleName, expected: string, observed: string, verdict: Verdict, options: CaseOptions = {}): CaseResult {
  const { grade, text } = rules[rule];
  const status: CaseStatus = verdict === 'broken' ? (grade === 'violation' ? 'fail' : 'advice') : verdict;
  return { case: name, rule: text, grade, expected, observed, status, successPath: options.successPath ?? false };
}

/**
 * Whether an answer about `name` is the container's "unknown operation" answer: same status, and
 * the same message once the probe name is replaced by `name`.
 */
export function isUnknownAnswer(state: RunState, route: string, name: string, observation: Observation): boolean {
  const unknown = state.unknownAnswers.get(route);
  if (unknown === undefined || 'failure' in unknown || 'failure' in observation) return false;
  if (unknown.res.status < 400 || unknown.res.status !== observation.res.status) return false;
  const expected = signature(unknown).split(state.undeclaredName).join(name);
  if (expected === signature(observation)) return true;
  // Containers that do not echo the name: the very same message.
  return signature(unknown) === signature(observation) && !signature(unknown).includes(state.undeclaredName);
}

/** How long a 200 answer that may be an endless stream is read before the checker hangs up. */
const firstLineMs = 2_000;

/**
 * A call whose 200 answer may be a stream that never ends: its first line (all of a unary answer)
 * is kept, then the checker hangs up; any other answer is read whole.
 */
export async function callOnce(state: RunState, name: string, route: string, body: string): Promise<Observation> {
  const opened = await state.observer.open(name, route, body);
  if (!('stream' in opened)) return opened;
  const { stream } = opened;
  const first = await stream.nextLine(Math.min(state.observer.timeoutMs, firstLineMs)).catch(() => undefined);
  stream.hangUp();
  return { res: { status: stream.status, headers: stream.headers, body: first ?? '', chunks: 0 } };
}

export { envelopeBody };
