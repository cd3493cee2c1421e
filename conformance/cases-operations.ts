/**
 * Per-operation cases: each declared operation must be dispatched on its own route and refused on
 * the other (by its `api_mode`). The checker does not know valid inputs, so "dispatched" means "not the
 * container's unknown-operation answer, not a crash": a validation 400 for `input: {}` counts.
 */
import { unaryContainerRoute } from '../spec/index.js';
import { describe, errorMessage, statusOf, type Observation } from './observe.js';
import { envelopeBody, isUnknownAnswer, otherRoute, result, routeOf, type RunState } from './state.js';
import type { CaseResult, CheckedEntry } from './types.js';

export async function operationCases(state: RunState): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const op of state.operations) {
    results.push(await rightRouteCase(state, op));
    results.push(await wrongRouteCase(state, op));
  }
  return results;
}

async function rightRouteCase(state: RunState, op: CheckedEntry): Promise<CaseResult> {
  const route = routeOf(op);
  const name = `${op.name} on ${route}`;
  const expected = 'dispatched: 2xx, or a 4xx about the input';
  const input = state.samples[op.name] ?? {};
  const body = envelopeBody(op.name, input);
  // Unary answers are read whole; a 200 stream is hung up on after its headers.
  const opened =
    route === unaryContainerRoute ? await state.observer.post(name, route, body) : await state.observer.open(name, route, body);
  if ('stream' in opened) {
    opened.stream.hangUp();
    state.runnable.set(op.name, input);
    return result(name, expected, '200 (stream opened, then closed by the checker)', 'pass');
  }
  const status = statusOf(opened);
  if (status === undefined) return result(name, expected, describe(opened), 'fail');
  if (status >= 200 && status < 300) {
    state.runnable.set(op.name, input);
    if ('res' in opened) state.unaryAnswers.set(op.name, opened.res);
    return result(name, expected, describe(opened), 'pass');
  }
  if (isUnknownAnswer(state, route, op.name, opened)) {
    return result(name, expected, `${describe(opened)} (the unknown-operation answer)`, 'fail');
  }
  // A 404 that is not the unknown-operation answer is the handler's own (e.g. "session not found"
  // from a container without input validation): the call was dispatched.
  if (status >= 500 || status === 405 || status === 413 || status === 415) {
    return result(name, expected, describe(opened), 'fail');
  }
  if (mentionsRoute(opened, otherRoute(route))) {
    return result(name, expected, `${describe(opened)} (refused as the wrong route)`, 'fail');
  }
  return result(name, expected, describe(opened), 'pass');
}

async function wrongRouteCase(state: RunState, op: CheckedEntry): Promise<CaseResult> {
  const right = routeOf(op);
  const wrong = otherRoute(right);
  const name = `${op.name} on ${wrong} (wrong route)`;
  const served = state.routes.includes(wrong);
  // A container that has no such route at all may answer 404 for the path.
  const expected = served ? `4xx naming ${right}` : '4xx (route not used by this container)';
  const answer = await state.observer.post(name, wrong, envelopeBody(op.name, state.samples[op.name] ?? {}));
  const status = statusOf(answer);
  if (status === undefined || status < 400 || status >= 500) return result(name, expected, describe(answer), 'fail');
  if (served && !mentionsRoute(answer, right)) {
    return result(name, expected, `${describe(answer)} (does not name ${right})`, 'fail');
  }
  return result(name, expected, describe(answer), 'pass');
}

function mentionsRoute(observation: Observation, route: string): boolean {
  return 'res' in observation && errorMessage(observation.res.body).includes(route);
}
