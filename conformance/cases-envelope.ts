/**
 * Cases about the HTTP surface and the container envelope (`class_method`, a body sent as a JSON
 * string, a missing `input`). They need no valid input: each is judged from refusals, or by
 * comparing two answers that must be equal.
 */
import { describe, type Observation, signature, statusOf } from './observe.js';
import type { RuleName } from './rules.js';
import { callOnce, envelopeBody, type RunState, result, routeOf, type Verdict } from './state.js';
import type { CaseResult } from './types.js';

/** Exactly `expected` passes; another 4xx is advice; a 2xx, a 5xx or no answer breaks the rule. */
function expectStatus(name: string, rule: RuleName, expected: number, observation: Observation): CaseResult {
  const status = statusOf(observation);
  let verdict: Verdict = 'pass';
  if (status === undefined || status < 400 || status >= 500) verdict = 'broken';
  else if (status !== expected) verdict = 'advice';
  return result(name, rule, String(expected), describe(observation), verdict);
}

export async function httpCases(state: RunState): Promise<CaseResult[]> {
  const { observer } = state;
  const results: CaseResult[] = [];
  const unknownPath = '/agentgen-conformance/no-such-route';
  const name = `unknown path POST ${unknownPath}`;
  results.push(expectStatus(name, 'unknownPath', 404, await observer.post(name, unknownPath, envelopeBody(state.undeclaredName, {}))));
  for (const route of state.routes) {
    const name = `non-POST: GET ${route}`;
    results.push(expectStatus(name, 'nonPost', 405, await observer.send(name, { method: 'GET', path: route })));
  }
  for (const route of state.routes) {
    const cases: Array<[string, string]> = [
      ['malformed JSON', '{"class_method": "x", '],
      ['non-object body', '[1, 2, 3]'],
      ['missing class_method', '{"input": {}}'],
    ];
    for (const [what, body] of cases) {
      const name = `${what} on ${route}`;
      results.push(expectStatus(name, 'badBody', 400, await observer.post(name, route, body)));
    }
  }
  return results;
}

/** Rule 2: a body that decodes to a JSON string is decoded once more, and only once more. */
export async function doubleEncodingCases(state: RunState): Promise<CaseResult[]> {
  const { observer } = state;
  const route = state.routes[0]!;
  const plainBody = envelopeBody(state.undeclaredName, {});
  const plain = state.unknownAnswers.get(route) ?? (await observer.post('double-encoded body', route, plainBody));
  const twice = await callOnce(state, 'double-encoded body', route, JSON.stringify(plainBody));
  const thrice = await callOnce(state, 'triple-encoded body', route, JSON.stringify(JSON.stringify(plainBody)));
  // What this container says about a body that is a string after two decodings: "not an object".
  const stringBody = await observer.post('double-encoded body', route, JSON.stringify(JSON.stringify('x')));
  const results: CaseResult[] = [];

  const twiceName = `double-encoded body on ${route}`;
  const expectedTwice = `the plain envelope's answer (${describe(plain)})`;
  if ('failure' in twice || signature(twice) !== signature(plain)) {
    results.push(result(twiceName, 'doubleEncoded', expectedTwice, describe(twice), 'broken'));
  } else if (signature(plain) === signature(stringBody)) {
    const why = `${describe(twice)} (indistinguishable from the answer to a non-object body)`;
    results.push(result(twiceName, 'doubleEncoded', expectedTwice, why, 'not-checked'));
  } else {
    results.push(result(twiceName, 'doubleEncoded', expectedTwice, describe(twice), 'pass'));
  }

  const thriceName = `triple-encoded body on ${route}`;
  const expectedThrice = '4xx, not the plain answer (decode only once more)';
  const thriceStatus = statusOf(thrice);
  if (thriceStatus === undefined || thriceStatus < 400 || thriceStatus >= 500) {
    results.push(result(thriceName, 'tripleEncoded', expectedThrice, describe(thrice), 'broken'));
  } else if (signature(thrice) === signature(plain)) {
    const decodedAgain = signature(plain) !== signature(stringBody);
    results.push(result(thriceName, 'tripleEncoded', expectedThrice, describe(thrice), decodedAgain ? 'broken' : 'not-checked'));
  } else {
    results.push(result(thriceName, 'tripleEncoded', expectedThrice, describe(thrice), 'pass'));
  }
  return results;
}

/** Rule 3: an absent `input` is an empty object, so both envelopes get the same answer. */
export async function missingInputCase(state: RunState): Promise<CaseResult> {
  const op = state.operations.find((o) => routeOf(o) === state.routes[0]) ?? state.operations[0];
  const expected = 'the same answer as with input: {}';
  if (op === undefined) return result('missing input', 'missingInput', expected, 'no operation is declared', 'not-checked');
  const route = routeOf(op);
  const name = `missing input (${op.name})`;
  const withEmpty = await callOnce(state, name, route, envelopeBody(op.name, {}));
  const without = await callOnce(state, name, route, envelopeBody(op.name));
  const status = statusOf(without);
  const bothSucceeded = status !== undefined && status < 300 && statusOf(withEmpty) === status;
  const same = bothSucceeded || signature(without) === signature(withEmpty);
  const ok = same && status !== undefined && status < 500;
  return result(name, 'missingInput', expected, `${describe(without)} vs ${describe(withEmpty)}`, ok ? 'pass' : 'broken');
}
