/**
 * Judged last, over everything the run saw: the shape of every error body (agentgen's convention
 * for the container routes, after `google.rpc.Status`: advice, since the contract shows no error
 * shape and the reference's Python server answers FastAPI's `{"detail": ...}`).
 */
import { describeRaw, mediaType } from './observe.js';
import { type RunState, result } from './state.js';
import type { CaseResult } from './types.js';

export function errorShapeCase(state: RunState): CaseResult {
  const name = 'error body shape';
  const expected = 'application/json {"error": {"code": <HTTP status>, "message", "status"}}';
  const seen = state.observer.errors;
  if (seen.length === 0) return result(name, 'errorShape', expected, 'no error answers seen', 'not-checked');
  for (const { case: where, res } of seen) {
    if (mediaType(res.headers['content-type']) !== 'application/json' || !isStatusBody(res.body, res.status)) {
      return result(name, 'errorShape', expected, `${where}: ${describeRaw({ res })}`, 'broken');
    }
  }
  return result(name, 'errorShape', expected, `all ${seen.length} error answers conform`, 'pass');
}

function isStatusBody(body: string, httpStatus: number): boolean {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown; status?: unknown } };
    const error = parsed.error;
    return typeof error === 'object' && error !== null && error.code === httpStatus && typeof error.message === 'string' && typeof error.status === 'string';
  } catch {
    return false;
  }
}
