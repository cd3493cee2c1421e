/**
 * What every answer of a fuzz run must be: per case expectation (see http-fuzz.ts), a 4xx in the
 * target's JSON error shape, or a valid result; never a 5xx, never a hang. Each function returns a
 * problem, or undefined when the answer is right.
 */
import { containerErrors } from '@agentgen/runtime/server';
import { type Answer, caseTimeoutMs, type FuzzCase, type Result } from './http-fuzz.js';

/** The answer shape a target gives; `route` says which result an answer with status 200 must be. */
export interface Shapes {
  /** A 4xx body: undefined when it is the target's error shape. */
  error(answer: Answer, head: boolean): string | undefined;
  /** A 200 (or an expected 204) answer for this case. */
  result(c: FuzzCase, answer: Answer): string | undefined;
  /** What every answer to this case must carry, whatever its status (CORS headers). */
  every?(c: FuzzCase, answer: Answer): string | undefined;
}

export function checkResult(c: FuzzCase, result: Result, shapes: Shapes): string | undefined {
  if (result.kind === 'unsent') return `the fuzzer built a request node:http will not send: ${result.reason}`;
  if (result.kind === 'timeout') return `no answer within ${caseTimeoutMs} ms: a hang (answers so far: ${result.answers.map((a) => a.status).join(', ')})`;
  if (c.kind === 'raw' && c.abortAfterMs !== undefined) return undefined; // the caller left: nothing to check but survival
  const { outcome, status } = c.expect;
  const needed = c.kind === 'raw' ? Math.max(c.answers, status === undefined ? 0 : 1) : 1;
  if (result.answers.length < needed) return `expected ${needed} answer(s), got ${result.answers.length} before the connection closed`;
  for (const answer of result.answers) {
    if (answer.status >= 500) return `a 5xx for a client's request: ${answer.status} ${answer.body.slice(0, 300)}`;
    const always = shapes.every?.(c, answer);
    if (always !== undefined) return `${answer.status}: ${always}`;
    if (answer.status === 200 || (answer.status === 204 && status === 204)) {
      if (outcome === 'error') return `expected an error${status === undefined ? '' : ` ${status}`}, got ${answer.status}: ${answer.body.slice(0, 300)}`;
      if (status !== undefined && answer.status !== status) return `expected ${status}, got ${answer.status}`;
      const problem = shapes.result(c, answer);
      if (problem !== undefined) return problem;
    } else if (answer.status >= 400 && answer.status < 500) {
      if (outcome === 'ok') return `expected a valid result, got ${answer.status}: ${answer.body.slice(0, 300)}`;
      if (status !== undefined && answer.status !== status) return `expected ${status}, got ${answer.status}: ${answer.body.slice(0, 300)}`;
      const problem = shapes.error(answer, c.kind === 'http' && c.method === 'HEAD');
      if (problem !== undefined) return `${answer.status}: ${problem}`;
    } else {
      return `unexpected status ${answer.status}: ${answer.body.slice(0, 300)}`;
    }
  }
  return undefined;
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const sameKeys = (value: Record<string, unknown>, keys: readonly string[]): boolean => Object.keys(value).sort().join(',') === [...keys].sort().join(',');

/** `{"error": {"code", "message", "status"}}` with `code` the HTTP status and a known (code, status) pair. */
const containerPairs = new Set([...Object.values(containerErrors).map((row) => `${row.http} ${row.status}`), '400 INVALID_ARGUMENT']);

export function containerErrorProblem(answer: Answer, head: boolean): string | undefined {
  if (!String(answer.headers['content-type']).startsWith('application/json')) return `content type ${String(answer.headers['content-type'])}, not JSON`;
  if (head) return answer.body === '' ? undefined : 'a body on a HEAD answer';
  const parsed = parseJson(answer.body);
  if (parsed === undefined) return `body is not JSON: ${answer.body.slice(0, 200)}`;
  const body = parsed.value;
  if (!isRecord(body) || !sameKeys(body, ['error']) || !isRecord(body['error'])) return `not {"error": {...}}: ${answer.body.slice(0, 200)}`;
  const error = body['error'];
  if (!sameKeys(error, ['code', 'message', 'status'])) return `error keys are not code, message, status: ${answer.body.slice(0, 200)}`;
  if (error['code'] !== answer.status) return `error.code ${String(error['code'])} is not the HTTP status`;
  if (typeof error['message'] !== 'string' || error['message'] === '') return 'error.message is not a non-empty string';
  if (!containerPairs.has(`${answer.status} ${String(error['status'])}`))
    return `(${answer.status}, ${String(error['status'])}) is no error row of the contract`;
  return undefined;
}

/** google.rpc.Status, as `agentgen dev` answers: `{"error": {"code", "message", "status", "details": []}}`. */
export function rpcStatusProblem(answer: Answer, head: boolean): string | undefined {
  if (!String(answer.headers['content-type']).startsWith('application/json')) return `content type ${String(answer.headers['content-type'])}, not JSON`;
  if (head) return answer.body === '' ? undefined : 'a body on a HEAD answer';
  const parsed = parseJson(answer.body);
  if (parsed === undefined) return `body is not JSON: ${answer.body.slice(0, 200)}`;
  const body = parsed.value;
  if (!isRecord(body) || !sameKeys(body, ['error']) || !isRecord(body['error'])) return `not {"error": {...}}: ${answer.body.slice(0, 200)}`;
  const error = body['error'];
  if (!sameKeys(error, ['code', 'details', 'message', 'status'])) return `error keys are not code, details, message, status: ${answer.body.slice(0, 200)}`;
  if (error['code'] !== answer.status) return `error.code ${String(error['code'])} is not the HTTP status`;
  if (typeof error['message'] !== 'string' || error['message'] === '') return 'error.message is not a non-empty string';
  if (typeof error['status'] !== 'string' || !/^[A-Z_]+$/.test(error['status'])) return `error.status ${String(error['status'])} is no google.rpc code name`;
  if (!Array.isArray(error['details'])) return 'error.details is not an array';
  return undefined;
}

/** A unary result: exactly `{"output": ...}`. */
export function unaryProblem(answer: Answer): string | undefined {
  if (!String(answer.headers['content-type']).startsWith('application/json')) return `content type ${String(answer.headers['content-type'])}, not JSON`;
  const parsed = parseJson(answer.body);
  if (parsed === undefined || !isRecord(parsed.value) || !sameKeys(parsed.value, ['output']))
    return `a 200 that is not {"output": ...}: ${answer.body.slice(0, 200)}`;
  return undefined;
}

/**
 * A stream's lines (NDJSON, or SSE `data:` lines when `sse`): each parses; a valid call has at
 * least one event and no error line; other calls may end with a 4xx error line, never a 5xx one.
 */
export function streamProblem(answer: Answer, valid: boolean, sse: boolean, errorShape: (line: Answer) => string | undefined): string | undefined {
  if (!String(answer.headers['content-type']).startsWith('application/json')) return `stream content type ${String(answer.headers['content-type'])}`;
  const lines = sse ? sseData(answer.body) : answer.body.split('\n').filter((line) => line.trim() !== '');
  if (lines === undefined) return `not SSE framing: ${answer.body.slice(0, 200)}`;
  if (valid && lines.length === 0) return 'a valid stream call produced no event';
  for (const [index, line] of lines.entries()) {
    const parsed = parseJson(line);
    if (parsed === undefined) return `stream line ${index} is not JSON: ${line.slice(0, 200)}`;
    const value = parsed.value;
    if (isRecord(value) && sameKeys(value, ['error'])) {
      if (valid) return `a valid stream call ended with an error line: ${line.slice(0, 300)}`;
      if (index !== lines.length - 1) return 'an error line before the end of the stream';
      const code = isRecord(value['error']) ? value['error']['code'] : undefined;
      if (typeof code !== 'number' || code >= 500) return `a stream error line that is no 4xx: ${line.slice(0, 300)}`;
      const problem = errorShape({ status: code, headers: { 'content-type': 'application/json' }, body: line });
      if (problem !== undefined) return `stream error line: ${problem}`;
    }
  }
  return undefined;
}

/** The `data:` payloads of an SSE body in which every event is one `data:` line and a blank line. */
function sseData(body: string): string[] | undefined {
  const out: string[] = [];
  for (const block of body.split('\n\n')) {
    if (block.trim() === '') continue;
    if (!block.startsWith('data: ') || block.includes('\n')) return undefined;
    out.push(block.slice('data: '.length));
  }
  return out;
}
