/**
 * Cases that need a successful call: the unary `{"output"}` wrapper, stream framing and media type
 * (rules 4–5), and a disconnect mid-stream. They run only for operations that answered 200 to
 * their sample (or to `input: {}`); otherwise they are reported as not checked.
 */
import { describe, describeRaw, mediaType, signature } from './observe.js';
import { streamContainerRoute } from '../spec/index.js';
import { envelopeBody, result, type RunState } from './state.js';
import type { CaseResult } from './types.js';

const maxLines = 1_000;

export function unaryOutputCase(state: RunState): CaseResult {
  const name = 'unary answer is {"output": ...}';
  const expected = 'application/json object with an "output" key';
  if (state.unaryAnswers.size === 0) {
    return result(name, expected, 'no unary operation succeeded with the inputs the checker has', 'not-checked');
  }
  for (const [op, res] of state.unaryAnswers) {
    const type = mediaType(res.headers['content-type']);
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      parsed = undefined;
    }
    const wrapped = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.hasOwn(parsed, 'output');
    if (type !== 'application/json' || !wrapped) {
      return result(name, expected, `${op}: ${type || 'no content type'}, ${describeRaw({ res })}`, 'fail');
    }
  }
  return result(name, expected, `ok for ${[...state.unaryAnswers.keys()].join(', ')}`, 'pass');
}

function runnableStreams(state: RunState): Array<[string, Readonly<Record<string, unknown>>]> {
  return state.operations
    .filter((op) => op.api_mode === 'stream' || op.api_mode === 'async_stream')
    .flatMap((op) => {
      const input = state.runnable.get(op.name);
      return input === undefined ? [] : [[op.name, input] as [string, Readonly<Record<string, unknown>>]];
    });
}

export async function streamFramingCases(state: RunState): Promise<CaseResult[]> {
  const expected = 'application/json, one JSON value per line';
  const streams = runnableStreams(state);
  if (streams.length === 0) {
    const why = 'no stream operation succeeded with the inputs the checker has (give samples)';
    return [result('stream framing and media type', expected, why, 'not-checked')];
  }
  const results: CaseResult[] = [];
  for (const [op, input] of streams) {
    const name = `stream framing and media type (${op})`;
    const route = streamContainerRoute;
    const opened = await state.observer.open(name, route, envelopeBody(op, input));
    if (!('stream' in opened)) {
      results.push(result(name, expected, `${describe(opened)} (succeeded before, not now)`, 'fail'));
      continue;
    }
    const { stream } = opened;
    const type = mediaType(stream.headers['content-type']);
    const lines: string[] = [];
    let broke: string | undefined;
    try {
      for (let line = await stream.nextLine(state.observer.timeoutMs); line !== undefined; ) {
        if (line.trim() !== '') lines.push(line);
        if (lines.length >= maxLines) break;
        line = await stream.nextLine(state.observer.timeoutMs);
      }
    } catch (error) {
      broke = (error as Error).message;
    }
    stream.hangUp();
    const bad = lines.find((line) => !isJson(line));
    if (type !== 'application/json') {
      results.push(result(name, expected, `content type ${JSON.stringify(type || '(none)')}`, 'fail'));
    } else if (bad !== undefined) {
      results.push(result(name, expected, `line is not JSON: ${JSON.stringify(bad.slice(0, 80))}`, 'fail'));
    } else if (lines.length === 1 && isArrayOfObjects(lines[0] ?? '')) {
      // Events are values on their own lines; one line holding an array of events is a JSON
      // array response, not a stream (a custom event that is itself such an array would look
      // the same: the checker errs on the side of the common mistake).
      results.push(result(name, expected, 'one line holding a JSON array of objects: a JSON array, not NDJSON', 'fail'));
    } else if (lines.length === 0) {
      const why = broke === undefined ? 'the stream had no lines' : `no lines: ${broke}`;
      results.push(result(name, expected, why, 'not-checked'));
    } else {
      const tail = broke === undefined ? '' : ` (then: ${broke})`;
      results.push(result(name, expected, `${lines.length} JSON lines${tail}`, 'pass'));
    }
  }
  return results;
}

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

function isArrayOfObjects(line: string): boolean {
  const value = JSON.parse(line) as unknown;
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'object' && item !== null);
}

export async function disconnectCases(state: RunState): Promise<CaseResult[]> {
  const keepsServing = 'disconnect mid-stream: container keeps serving';
  const stops = 'disconnect mid-stream: producer stops';
  const stopsRow = result(
    stops,
    'the handler is cancelled',
    'not observable from outside the container (agentgen tests its own server for this)',
    'not-checked',
  );
  const [first] = runnableStreams(state);
  if (first === undefined) {
    const why = 'no stream operation succeeded with the inputs the checker has (give samples)';
    return [result(keepsServing, 'same answers after the hang-up', why, 'not-checked'), stopsRow];
  }
  const [op, input] = first;
  const route = streamContainerRoute;
  const opened = await state.observer.open(keepsServing, route, envelopeBody(op, input));
  if (!('stream' in opened)) {
    return [result(keepsServing, 'a stream to hang up on', describe(opened), 'fail'), stopsRow];
  }
  let line: string | undefined;
  try {
    line = await opened.stream.nextLine(state.observer.timeoutMs);
  } catch {
    line = undefined;
  }
  opened.stream.hangUp();
  const before = state.unknownAnswers.get(route);
  const after = await state.observer.post(keepsServing, route, envelopeBody(state.undeclaredName, {}));
  const note = line === undefined ? ' (hung up before any line arrived)' : ` (hung up after the first line of ${op})`;
  if (before === undefined) return [result(keepsServing, 'an answer after the hang-up', describe(after) + note, 'not-checked'), stopsRow];
  const same = signature(after) === signature(before);
  return [result(keepsServing, 'same answers after the hang-up', describe(after) + note, same ? 'pass' : 'fail'), stopsRow];
}
