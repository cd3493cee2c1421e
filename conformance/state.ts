/** What the cases of one run share: the observer, the declared operations, and what earlier cases learned. */
import { apiModeRouting, streamContainerRoute, unaryContainerRoute } from '../spec/index.js';
import { envelopeBody, signature, type Observation, type Observer } from './observe.js';
import type { ProbeResponse } from './http.js';
import type { CaseResult, CaseStatus, CheckedEntry } from './types.js';

export interface RunState {
  readonly observer: Observer;
  readonly operations: readonly CheckedEntry[];
  readonly samples: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Routes the declared operations need; a container may serve only these. */
  readonly routes: readonly string[];
  /** A name no container declares, used to learn how this container answers unknown operations. */
  readonly undeclaredName: string;
  /** The container's answer to `undeclaredName`, per route. */
  readonly unknownAnswers: Map<string, Observation>;
  /** Operations that answered 200, with the input that did it. */
  readonly runnable: Map<string, Readonly<Record<string, unknown>>>;
  /** The 2xx answers of unary operations, for the `{"output"}` case. */
  readonly unaryAnswers: Map<string, ProbeResponse>;
}

export const undeclaredName = 'agentgen_conformance_undeclared';

export function routeOf(operation: CheckedEntry): string {
  return apiModeRouting[operation.api_mode].containerRoute;
}

export function otherRoute(route: string): string {
  return route === unaryContainerRoute ? streamContainerRoute : unaryContainerRoute;
}

export function routesInUse(operations: readonly CheckedEntry[]): string[] {
  const used = new Set(operations.map(routeOf));
  // With nothing declared there is nothing to narrow by: check both routes.
  if (used.size === 0) return [unaryContainerRoute, streamContainerRoute];
  return [unaryContainerRoute, streamContainerRoute].filter((route) => used.has(route));
}

export function result(name: string, expected: string, observed: string, status: CaseStatus): CaseResult {
  return { case: name, expected, observed, status };
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
  // Containers that do not echo the name: a 404 with the very same message.
  return signature(unknown) === signature(observation) && !signature(unknown).includes(state.undeclaredName);
}

export { envelopeBody };
