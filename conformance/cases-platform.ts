/**
 * Cases about what the real runtime does beyond the contract (google/adk-js PR #440, found when
 * Google's TypeScript container first ran on it): it forwards query payloads with a doubled
 * `Content-Type: application/json,application/json`, and its liveness checks request `/` and
 * `/health`, killing a container that answers them with a redirect.
 */
import { describe, signature, statusOf } from './observe.js';
import { envelopeBody, type RunState, result, type Verdict } from './state.js';
import type { CaseResult } from './types.js';

/** The header as the runtime forwards it. */
export const doubledContentType = 'application/json,application/json';

/** Rule: each route answers the doubled header as it answers plain `application/json`. */
export async function forwardedContentTypeCases(state: RunState): Promise<CaseResult[]> {
  const { observer } = state;
  const body = envelopeBody(state.undeclaredName, {});
  const results: CaseResult[] = [];
  for (const route of state.routes) {
    const name = `doubled Content-Type on ${route}`;
    const plain = state.unknownAnswers.get(route) ?? (await observer.post(name, route, body));
    const doubled = await observer.send(name, { path: route, body, headers: { 'content-type': doubledContentType } });
    // No answer is never a pass, even when the plain envelope got none either.
    const verdict: Verdict = 'res' in doubled && signature(doubled) === signature(plain) ? 'pass' : 'broken';
    results.push(result(name, 'forwardedContentType', `the answer to plain application/json (${describe(plain)})`, describe(doubled), verdict));
  }
  return results;
}

/** Rule: GET `/` and `/health` answer 2xx; a redirect or no answer gets the container killed. */
export async function livenessCases(state: RunState): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const path of ['/', '/health']) {
    const name = `liveness GET ${path}`;
    const observation = await state.observer.send(name, { method: 'GET', path });
    const status = statusOf(observation);
    // A 4xx or 5xx is no redirect, but the reference container answers 200: advice.
    const verdict: Verdict = status === undefined || (status >= 300 && status < 400) ? 'broken' : status >= 400 ? 'advice' : 'pass';
    results.push(result(name, 'liveness', '200 (no redirect)', describe(observation), verdict));
  }
  return results;
}
