/**
 * Cases about the HTTP surface and the container envelope (`class_method`, a body sent as a JSON string, a missing `input`). They need no
 * valid input: each is judged from refusals, or by comparing two answers that must be equal.
 */
import { describe, signature, statusOf, type Observation } from './observe.js';
import { envelopeBody, result, routeOf, type RunState } from './state.js';
import type { CaseResult } from './types.js';

const prototypeNames = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

function expectStatus(name: string, expected: readonly number[], observation: Observation, label: string): CaseResult {
  const status = statusOf(observation);
  const ok = status !== undefined && expected.includes(status);
  return result(name, label, describe(observation), ok ? 'pass' : 'fail');
}

export async function httpCases(state: RunState): Promise<CaseResult[]> {
  const { observer } = state;
  const results: CaseResult[] = [];
  const unknownPath = '/agentgen-conformance/no-such-route';
  results.push(
    expectStatus(
      `unknown path POST ${unknownPath}`,
      [404],
      await observer.post('unknown path', unknownPath, envelopeBody(state.undeclaredName, {})),
      '404',
    ),
  );
  for (const route of state.routes) {
    const name = `non-POST: GET ${route}`;
    results.push(expectStatus(name, [405], await observer.send(name, { method: 'GET', path: route }), '405'));
  }
  for (const route of state.routes) {
    const cases: Array<[string, string, string]> = [
      ['malformed JSON', '{"class_method": "x", ', '400'],
      ['non-object body', '[1, 2, 3]', '400'],
      ['missing class_method', '{"input": {}}', '400'],
    ];
    for (const [what, body, label] of cases) {
      const name = `${what} on ${route}`;
      results.push(expectStatus(name, [400], await observer.post(name, route, body), label));
    }
  }
  return results;
}

export async function dispatchCases(state: RunState): Promise<CaseResult[]> {
  const { observer } = state;
  const results: CaseResult[] = [];
  const refusal = '404 (or 400) naming no handler';
  for (const route of state.routes) {
    const name = `undeclared name on ${route}`;
    const answer = await observer.post(name, route, envelopeBody(state.undeclaredName, {}));
    state.unknownAnswers.set(route, answer);
    results.push(expectStatus(name, [404, 400], answer, refusal));
  }
  const declared = new Set(state.operations.map((op) => op.name));
  for (const route of state.routes) {
    for (const proto of prototypeNames.filter((n) => !declared.has(n))) {
      const name = `prototype name ${proto} on ${route}`;
      results.push(expectStatus(name, [404, 400], await observer.post(name, route, envelopeBody(proto, {})), refusal));
    }
  }
  return results;
}

/** Rule 2: a body that decodes to a JSON string is decoded once more, and only once more. */
export async function doubleEncodingCases(state: RunState): Promise<CaseResult[]> {
  const { observer } = state;
  const route = state.routes[0] ?? '/api/reasoning_engine';
  const plainBody = envelopeBody(state.undeclaredName, {});
  const plain = state.unknownAnswers.get(route) ?? (await observer.post('double-encoded body', route, plainBody));
  const twice = await observer.post('double-encoded body', route, JSON.stringify(plainBody));
  const thrice = await observer.post('triple-encoded body', route, JSON.stringify(JSON.stringify(plainBody)));
  // What this container says about a body that is a string after two decodings: "not an object".
  const stringBody = await observer.post('double-encoded body', route, JSON.stringify(JSON.stringify('x')));
  const results: CaseResult[] = [];

  const expectedTwice = 'same answer as the plain envelope';
  if ('failure' in twice || signature(twice) !== signature(plain)) {
    results.push(result(`double-encoded body on ${route}`, expectedTwice, describe(twice), 'fail'));
  } else if (signature(plain) === signature(stringBody)) {
    const why = `${describe(twice)} (indistinguishable from the answer to a non-object body)`;
    results.push(result(`double-encoded body on ${route}`, expectedTwice, why, 'not-checked'));
  } else {
    results.push(result(`double-encoded body on ${route}`, expectedTwice, describe(twice), 'pass'));
  }

  const expectedThrice = '4xx, not the plain answer (decode only once more)';
  const thriceStatus = statusOf(thrice);
  if (thriceStatus === undefined || thriceStatus < 400 || thriceStatus >= 500) {
    results.push(result(`triple-encoded body on ${route}`, expectedThrice, describe(thrice), 'fail'));
  } else if (signature(thrice) === signature(plain)) {
    const decodedAgain = signature(plain) !== signature(stringBody);
    const observed = describe(thrice);
    results.push(
      result(`triple-encoded body on ${route}`, expectedThrice, observed, decodedAgain ? 'fail' : 'not-checked'),
    );
  } else {
    results.push(result(`triple-encoded body on ${route}`, expectedThrice, describe(thrice), 'pass'));
  }
  return results;
}

/** Rule 3: an absent `input` is an empty object, so both envelopes get the same answer. */
export async function missingInputCase(state: RunState): Promise<CaseResult> {
  const op = state.operations.find((o) => o.api_mode === '' || o.api_mode === 'async') ?? state.operations[0];
  const expected = 'same answer as with input: {}';
  if (op === undefined) return result('missing input', expected, 'no operation is declared', 'not-checked');
  const route = routeOf(op);
  const name = `missing input (${op.name})`;
  const withEmpty = await callOnce(state, name, route, envelopeBody(op.name, {}));
  const without = await callOnce(state, name, route, envelopeBody(op.name));
  const status = statusOf(without);
  const same =
    status === 200 ? statusOf(withEmpty) === 200 : signature(without) === signature(withEmpty);
  const ok = same && status !== undefined && status < 500;
  return result(name, expected, `${describe(without)} vs ${describe(withEmpty)}`, ok ? 'pass' : 'fail');
}

/** A call whose 200 answer may be a stream: hang up after the headers, keep the rest comparable. */
async function callOnce(state: RunState, name: string, route: string, body: string): Promise<Observation> {
  const opened = await state.observer.open(name, route, body);
  if (!('stream' in opened)) return opened;
  opened.stream.hangUp();
  return { res: { status: 200, headers: opened.stream.headers, body: '', chunks: 0 } };
}
