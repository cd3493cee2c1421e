/**
 * Judged last, over everything the run saw: the shape of every error body (agentgen's choice for
 * the container routes, after `google.rpc.Status`), and whether the container is still serving.
 */
import { describe, describeRaw, mediaType, signature } from './observe.js';
import { envelopeBody, result, type RunState } from './state.js';
import type { CaseResult } from './types.js';

export function errorShapeCase(state: RunState): CaseResult {
  const name = 'error body shape';
  const expected = 'application/json {"error": {"code": <HTTP status>, "message", "status"}}';
  const seen = state.observer.errors;
  if (seen.length === 0) return result(name, expected, 'no error answers seen', 'not-checked');
  for (const { case: where, res } of seen) {
    if (mediaType(res.headers['content-type']) !== 'application/json' || !isStatusBody(res.body, res.status)) {
      return result(name, expected, `${where}: ${describeRaw({ res })}`, 'fail');
    }
  }
  return result(name, expected, `all ${seen.length} error answers conform`, 'pass');
}

function isStatusBody(body: string, httpStatus: number): boolean {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown; status?: unknown } };
    const error = parsed.error;
    return (
      typeof error === 'object' &&
      error !== null &&
      error.code === httpStatus &&
      typeof error.message === 'string' &&
      typeof error.status === 'string'
    );
  } catch {
    return false;
  }
}

export async function stillServingCase(state: RunState): Promise<CaseResult> {
  const name = 'still serving after all cases';
  const route = state.routes[0] ?? '/api/reasoning_engine';
  const before = state.unknownAnswers.get(route);
  const after = await state.observer.post(name, route, envelopeBody(state.undeclaredName, {}));
  if (before === undefined) return result(name, 'an answer', describe(after), 'not-checked');
  const ok = !('failure' in after) && signature(after) === signature(before);
  return result(name, 'the same answer as at the start', describe(after), ok ? 'pass' : 'fail');
}
