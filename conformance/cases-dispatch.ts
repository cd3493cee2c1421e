/**
 * Rule 8, routing by the declared list only: an undeclared name, and names that exist on every
 * object in the languages containers are written in, so a wrapper that looks `class_method` up
 * on an object (`handlers[name]`, `getattr(agent, name)`, `reflect.MethodByName`, `getMethod`,
 * `public_send`) instead of in the declared list is caught. Each must be refused with a 4xx; the
 * probes run last, so the final "still serving" case tells whether one of them broke the container.
 */
import { describe, type Observation, signature, statusOf } from './observe.js';
import { callOnce, envelopeBody, type RunState, result, type Verdict } from './state.js';
import type { CaseResult } from './types.js';

/** Names that exist on objects although nobody declared them, by the language that has them. */
export const dispatchProbes: Readonly<Record<string, readonly string[]>> = {
  JavaScript: ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'],
  Python: ['__init__', '__class__', '__repr__', '__dict__', '__getattribute__', '__str__', '__dir__', '__reduce__'],
  Go: ['String', 'Error', 'ServeHTTP'],
  Java: ['getClass', 'hashCode', 'equals', 'clone'],
  'C#': ['GetType', 'GetHashCode', 'ToString', 'Equals'],
  Ruby: ['send', 'public_send', 'instance_eval', 'instance_variables', 'methods', 'object_id', 'inspect'],
  PHP: ['__construct', '__toString', '__invoke'],
};

const refusal = '400 or 404 with a JSON body';

/**
 * An answer to an undeclared name: 400 or 404 with a JSON body passes (the reference answers
 * 400); another 4xx, or a body that is not JSON, is advice; a 2xx, a 5xx or no answer broke rule 8.
 */
export function judgeRefusal(observation: Observation): Verdict {
  const status = statusOf(observation);
  if (status === undefined || status < 400 || status >= 500) return 'broken';
  if (status !== 400 && status !== 404) return 'advice';
  return 'res' in observation && isJson(observation.res.body) ? 'pass' : 'advice';
}

export async function undeclaredCases(state: RunState): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const route of state.routes) {
    const name = `undeclared name on ${route}`;
    const answer = await callOnce(state, name, route, envelopeBody(state.undeclaredName, {}));
    state.unknownAnswers.set(route, answer);
    results.push(result(name, 'declaredOnly', refusal, describe(answer), judgeRefusal(answer)));
  }
  return results;
}

export async function probeCases(state: RunState): Promise<CaseResult[]> {
  const declared = new Set(state.operations.map((op) => op.name));
  const results: CaseResult[] = [];
  for (const [language, names] of Object.entries(dispatchProbes)) {
    for (const probe of names.filter((n) => !declared.has(n))) {
      for (const route of state.routes) {
        const name = `${language} object member ${probe} on ${route}`;
        const answer = await callOnce(state, name, route, envelopeBody(probe, {}));
        results.push(result(name, 'declaredOnly', refusal, describe(answer), judgeRefusal(answer)));
      }
    }
  }
  return results;
}

/** The undeclared probe once more: the same answer as at the start (catches a crash or a changed agent). */
export async function stillServingCase(state: RunState, name: string): Promise<CaseResult> {
  const route = state.routes[0]!;
  const before = state.unknownAnswers.get(route);
  const after = await callOnce(state, name, route, envelopeBody(state.undeclaredName, {}));
  if (before === undefined) return result(name, 'stillServing', 'an answer', describe(after), 'not-checked');
  const ok = !('failure' in after) && signature(after) === signature(before);
  return result(name, 'stillServing', `the same answer as at the start (${describe(before)})`, describe(after), ok ? 'pass' : 'broken');
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
