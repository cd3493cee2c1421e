/**
 * Per-operation cases, from one call of each declared operation on its own route with the input
 * the run planned for it (a sample, or one built from its schema): it must be dispatched (rule 8),
 * and should succeed (the success path, judged further in `cases-results.ts`); on the other route
 * it is refused (by its `api_mode`).
 */
import { describe, errorMessage, type Observation, statusOf } from './observe.js';
import { callOnce, envelopeBody, isStream, isUnknownAnswer, otherRoute, type PlannedInput, type RunState, result, routeOf } from './state.js';
import type { CaseResult, CheckedEntry } from './types.js';

export async function operationCases(state: RunState): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const op of state.operations) {
    results.push(...(await rightRouteCases(state, op)));
    results.push(await wrongRouteCase(state, op));
  }
  return results;
}

async function rightRouteCases(state: RunState, op: CheckedEntry): Promise<CaseResult[]> {
  const route = routeOf(op);
  const planned = state.inputs.get(op.name) ?? { input: {}, from: 'nothing' };
  const input = 'input' in planned ? planned.input : {};
  const dispatched = `${op.name} is dispatched on ${route}`;
  const succeeds = `${op.name} succeeds on ${route}`;
  const body = envelopeBody(op.name, input);
  // Unary answers are read whole; a 200 stream is hung up on after its headers (the framing case reads it).
  const opened = isStream(op) ? await state.observer.open(succeeds, route, body) : await state.observer.post(succeeds, route, body);
  if ('stream' in opened) {
    opened.stream.hangUp();
    state.runnable.set(op.name, input);
    return [
      result(dispatched, 'declaredDispatched', 'not the unknown-operation answer', '200 (a stream)', 'pass'),
      result(succeeds, 'succeeds', 'a 2xx answer', `200 (a stream, closed by the checker) for ${inputText(planned)}`, 'pass', { successPath: true }),
    ];
  }
  const status = statusOf(opened);
  const dispatchCase = dispatchedCase(state, op, dispatched, opened);
  if (status !== undefined && status >= 200 && status < 300) {
    state.runnable.set(op.name, input);
    if ('res' in opened) state.unaryAnswers.set(op.name, opened.res);
    return [dispatchCase, result(succeeds, 'succeeds', 'a 2xx answer', `${describe(opened)} for ${inputText(planned)}`, 'pass', { successPath: true })];
  }
  const expected = 'a 2xx answer';
  if ('unavailable' in planned) {
    return [
      dispatchCase,
      result(succeeds, 'succeeds', expected, `no valid input: ${planned.unavailable} (give a sample)`, 'not-checked', { successPath: true }),
    ];
  }
  if (planned.from === 'nothing') {
    const why = `no parameter schema and no sample; input {} got ${describe(opened)}`;
    return [dispatchCase, result(succeeds, 'succeeds', expected, why, 'not-checked', { successPath: true })];
  }
  if (status === undefined || status >= 500) {
    const why = `${describe(opened)}: the call failed on ${inputText(planned)}`;
    return [dispatchCase, result(succeeds, 'noFailure', expected, why, 'broken', { successPath: true })];
  }
  const why = `${describe(opened)}: the container refused ${inputText(planned)}`;
  return [dispatchCase, result(succeeds, 'succeeds', expected, why, 'broken', { successPath: true })];
}

/**
 * Dispatched: any answer but the container's unknown-operation answer and a refusal as the wrong
 * route. A 404 that is not the unknown-operation answer is the handler's own ("session not found").
 */
function dispatchedCase(state: RunState, op: CheckedEntry, name: string, observation: Observation): CaseResult {
  const route = routeOf(op);
  const expected = 'not the unknown-operation answer';
  if ('failure' in observation) return result(name, 'declaredDispatched', expected, describe(observation), 'broken');
  if (isUnknownAnswer(state, route, op.name, observation)) {
    return result(name, 'declaredDispatched', expected, `${describe(observation)} (the unknown-operation answer)`, 'broken');
  }
  const status = observation.res.status;
  if (status >= 400 && status < 500 && mentionsRoute(observation, otherRoute(route))) {
    return result(name, 'declaredDispatched', expected, `${describe(observation)} (refused as the wrong route)`, 'broken');
  }
  return result(name, 'declaredDispatched', expected, describe(observation), 'pass');
}

async function wrongRouteCase(state: RunState, op: CheckedEntry): Promise<CaseResult> {
  const right = routeOf(op);
  const wrong = otherRoute(right);
  const name = `${op.name} on ${wrong} (wrong route)`;
  const served = state.routes.includes(wrong);
  // A container that has no such route at all may answer 404 for the path.
  const expected = served ? `4xx naming ${right}` : '4xx (route not used by this container)';
  const planned = state.inputs.get(op.name);
  const input = planned !== undefined && 'input' in planned ? planned.input : {};
  const answer = await callOnce(state, name, wrong, envelopeBody(op.name, input));
  const status = statusOf(answer);
  if (status === undefined || status < 400 || status >= 500) return result(name, 'wrongRoute', expected, describe(answer), 'broken');
  if (served && !mentionsRoute(answer, right)) {
    return result(name, 'wrongRoute', expected, `${describe(answer)} (does not name ${right})`, 'broken');
  }
  return result(name, 'wrongRoute', expected, describe(answer), 'pass');
}

function mentionsRoute(observation: Observation, route: string): boolean {
  return 'res' in observation && errorMessage(observation.res.body).includes(route);
}

function inputText(planned: PlannedInput): string {
  if ('unavailable' in planned) return 'input {}';
  const text = JSON.stringify(planned.input);
  const clipped = text.length > 400 ? `${text.slice(0, 399)}…` : text;
  return planned.from === 'sample' ? `the sample ${clipped}` : planned.from === 'schema' ? `the input built from its schema ${clipped}` : `input ${clipped}`;
}
