/**
 * Cases that need a successful call (the success path): the unary `{"output"}` wrapper (rule 4),
 * stream framing and media type (rule 5), results and events against the spec's `output`
 * schema, and a disconnect mid-stream. Each runs for the operations that answered 2xx to their
 * planned input; for the others it is reported as not checked, with the reason.
 */

import { streamContainerRoute } from '../contract/index.js';
import { describe, describeRaw, mediaType, signature } from './observe.js';
import { callOnce, envelopeBody, isStream, type RunState, result } from './state.js';
import type { CaseResult, CheckedEntry } from './types.js';

const maxLines = 1_000;
const successPath = { successPath: true } as const;

function notRun(op: string): string {
  return `${op} did not succeed with the checker's input (see "${op} succeeds")`;
}

export function unaryCases(state: RunState): CaseResult[] {
  const results: CaseResult[] = [];
  for (const op of state.operations.filter((o) => !isStream(o))) {
    const name = `unary answer is {"output": ...} (${op.name})`;
    const expected = 'application/json object with an "output" key';
    const res = state.unaryAnswers.get(op.name);
    const check = state.outputChecks.get(op.name);
    const schemaName = `result matches the spec's output schema (${op.name})`;
    if (res === undefined) {
      results.push(result(name, 'unaryOutput', expected, notRun(op.name), 'not-checked', successPath));
      if (check !== undefined) results.push(result(schemaName, 'outputSchema', 'valid', notRun(op.name), 'not-checked', successPath));
      continue;
    }
    const parsed = parseJson(res.body);
    const wrapped = isRecord(parsed) && Object.hasOwn(parsed, 'output');
    const type = mediaType(res.headers['content-type']);
    if (!wrapped) {
      results.push(result(name, 'unaryOutput', expected, `${type || 'no content type'}: ${describeRaw({ res })}`, 'broken', successPath));
    } else if (type !== 'application/json') {
      results.push(result(name, 'unaryOutput', expected, `content type ${JSON.stringify(type || '(none)')}`, 'advice', successPath));
    } else {
      results.push(result(name, 'unaryOutput', expected, describeRaw({ res }), 'pass', successPath));
    }
    if (check === undefined) continue;
    if (!wrapped) {
      results.push(result(schemaName, 'outputSchema', 'valid', 'no "output" to check', 'not-checked', successPath));
      continue;
    }
    const problem = check(parsed['output']);
    results.push(result(schemaName, 'outputSchema', 'valid', problem ?? 'valid', problem === undefined ? 'pass' : 'broken', successPath));
  }
  return results;
}

/** Stream operations with the input that made them answer 200. */
function runnableStreams(state: RunState): Array<[CheckedEntry, Readonly<Record<string, unknown>>]> {
  return state.operations.filter(isStream).flatMap((op) => {
    const input = state.runnable.get(op.name);
    return input === undefined ? [] : [[op, input] as [CheckedEntry, Readonly<Record<string, unknown>>]];
  });
}

export async function streamCases(state: RunState): Promise<CaseResult[]> {
  const expected = 'application/json, one JSON value per line';
  const results: CaseResult[] = [];
  for (const op of state.operations.filter(isStream)) {
    const name = `stream framing and media type (${op.name})`;
    const schemaName = `events match the spec's output schema (${op.name})`;
    const check = state.outputChecks.get(op.name);
    const input = state.runnable.get(op.name);
    if (input === undefined) {
      results.push(result(name, 'streamFraming', expected, notRun(op.name), 'not-checked', successPath));
      if (check !== undefined) results.push(result(schemaName, 'outputSchema', 'valid', notRun(op.name), 'not-checked', successPath));
      continue;
    }
    const read = await readStream(state, name, op.name, input);
    if ('failure' in read) {
      results.push(result(name, 'streamFraming', expected, read.failure, 'broken', successPath));
      continue;
    }
    results.push(framingCase(name, expected, read));
    if (check === undefined) continue;
    const events = read.lines.map(parseJson).filter((event) => !isErrorLine(event));
    const bad = events.map((event, i) => [i, check(event)] as const).find(([, problem]) => problem !== undefined);
    const observed = bad === undefined ? `${events.length} events valid` : `event ${bad[0]}: ${bad[1]}`;
    results.push(result(schemaName, 'outputSchema', 'valid', observed, bad === undefined ? 'pass' : 'broken', successPath));
  }
  return results;
}

interface ReadStream {
  readonly type: string;
  readonly lines: readonly string[];
  /** Why reading stopped before the end, if it did. */
  readonly broke: string | undefined;
}

async function readStream(state: RunState, name: string, op: string, input: unknown): Promise<ReadStream | { failure: string }> {
  const opened = await state.observer.open(name, streamContainerRoute, envelopeBody(op, input));
  if (!('stream' in opened)) return { failure: `${describe(opened)} (succeeded before, not now)` };
  const { stream } = opened;
  const lines: string[] = [];
  let broke: string | undefined;
  try {
    for (let line = await stream.nextLine(state.observer.timeoutMs); line !== undefined;) {
      if (line.trim() !== '') lines.push(line);
      if (lines.length >= maxLines) break;
      line = await stream.nextLine(state.observer.timeoutMs);
    }
  } catch (error) {
    broke = (error as Error).message;
  }
  stream.hangUp();
  return { type: mediaType(stream.headers['content-type']), lines, broke };
}

function framingCase(name: string, expected: string, { type, lines, broke }: ReadStream): CaseResult {
  const bad = lines.find((line) => parseJson(line) === undefined);
  if (type !== 'application/json') return result(name, 'streamFraming', expected, `content type ${JSON.stringify(type || '(none)')}`, 'broken', successPath);
  if (bad !== undefined) return result(name, 'streamFraming', expected, `line is not JSON: ${JSON.stringify(bad.slice(0, 80))}`, 'broken', successPath);
  if (lines.length === 1 && isArrayOfObjects(parseJson(lines[0]!))) {
    // Events are values on their own lines; one line holding an array of events is a JSON array
    // response, not a stream (a custom event that is itself such an array would look the same:
    // the checker errs on the side of the common mistake).
    return result(name, 'streamFraming', expected, 'one line holding a JSON array of objects: a JSON array, not NDJSON', 'broken', successPath);
  }
  if (lines.length === 0) {
    return result(name, 'streamFraming', expected, broke === undefined ? 'the stream had no lines' : `no lines: ${broke}`, 'not-checked', successPath);
  }
  const tail = broke === undefined ? '' : ` (then: ${broke})`;
  return result(name, 'streamFraming', expected, `${lines.length} JSON lines${tail}`, 'pass', successPath);
}

export async function disconnectCase(state: RunState): Promise<CaseResult[]> {
  const name = 'disconnect mid-stream: container keeps serving';
  const expected = 'the same answers after the hang-up';
  if (!state.operations.some(isStream)) return [];
  const [first] = runnableStreams(state);
  if (first === undefined) return [result(name, 'disconnect', expected, "no stream operation succeeded with the checker's inputs", 'not-checked', successPath)];
  const [op, input] = first;
  const route = streamContainerRoute;
  const opened = await state.observer.open(name, route, envelopeBody(op.name, input));
  if (!('stream' in opened)) return [result(name, 'disconnect', 'a stream to hang up on', describe(opened), 'broken', successPath)];
  let line: string | undefined;
  try {
    line = await opened.stream.nextLine(state.observer.timeoutMs);
  } catch {
    line = undefined;
  }
  opened.stream.hangUp();
  const before = state.unknownAnswers.get(route);
  const after = await callOnce(state, name, route, envelopeBody(state.undeclaredName, {}));
  const note = line === undefined ? ' (hung up before any line arrived)' : ` (hung up after the first line of ${op.name})`;
  if (before === undefined) return [result(name, 'disconnect', expected, describe(after) + note, 'not-checked', successPath)];
  const same = signature(after) === signature(before);
  return [result(name, 'disconnect', expected, describe(after) + note, same ? 'pass' : 'broken', successPath)];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The reference's way to end a stream that failed after it started: a last line `{"error": ...}`. */
function isErrorLine(value: unknown): boolean {
  return isRecord(value) && Object.keys(value).length === 1 && Object.hasOwn(value, 'error');
}

function isArrayOfObjects(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'object' && item !== null);
}
