/**
 * Issue 29 item 7: lone surrogates, long ids and NUL in the HTTP fuzzers. The other HTTP fuzzers
 * target an agent that takes any id; this one targets AgentApp (a real ADK agent on a scripted
 * model, in memory, behind the generated server of agent-app/generated, in its own process:
 * agent-app-target.ts). Each request picks one of the 45 places that carry an id or an artifact
 * file name (id-slots.ts: session, memory, stream and artifact operations, and the handoff's
 * request_json) and puts a value there inside an otherwise valid input:
 * - a bad one (hostileIds: 10,000 characters, NUL, tab, DEL, lone surrogates; any C0 control,
 *   DEL or lone surrogate inserted anywhere; 129 UTF-16 units for an id, 256 for a file name, or
 *   up to 10,000; file names that climb out of their folder): 400 INVALID_ARGUMENT in the JSON
 *   error shape, naming the field, short, never quoting the value;
 * - a good one (often exactly 128 units for an id, 255 for a file name, astral characters
 *   included): 200 and a valid result; a read or a delete gets its session created first.
 * Never a 5xx, a hang or a closed connection; at the end the target still serves ids at the limit,
 * Object.prototype is untouched and its stderr is empty. FUZZ_RUNS requests (default 2,000);
 * replay a run with FUZZ_SEED=<seed printed>.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkResult, containerErrorProblem, type Shapes, streamProblem, unaryProblem } from './checks.js';
import { type Answer, describeCase, described, fuzzRuns, fuzzSeed, Histogram, type HttpCase, runPool, sendHttp } from './http-fuzz.js';
import { type Slot, slots } from './id-slots.js';
import { streamRoute, unaryRoute } from './server-cases.js';
import { spawnTarget, type Target } from './spawn-target.js';
import { hostileIds, loneSurrogates } from './surface-inputs.js';

const seed = fuzzSeed();
const runs = fuzzRuns(2_000);
/** Cases per property run, all in flight at once. */
const batch = 40;
/** The rules of agent-app/src/ids.ts, in UTF-16 units (JavaScript's string length). */
const idLimit = 128;
const nameLimit = 255;

let target: Target;
beforeAll(async () => {
  target = await spawnTarget('agent-app-target.ts');
}, 60_000);
afterAll(() => target?.stop());

const isFileName = (slot: Slot): boolean => /file_?name$/.test(slot.field);
/** Operations that read or delete the session the input names: a valid call needs it to exist. */
const needsSession = new Set(['get_session', 'async_get_session', 'delete_session', 'async_delete_session', 'async_add_session_to_memory']);

/** Characters of real ids: ASCII, Latin letters, U+FFFD, astral ones (two UTF-16 units each). */
const idText = fc.array(fc.constantFrom('i', 'Z', '7', '_', '-', '.', '@', ' ', 'ü', 'ı', '\ufffd', '🦜', '😀'), { maxLength: 300 }).map((a) => a.join(''));
/** Characters of file names, folders included; never a `.` or `..` segment (trailing blanks trimmed, as ADK reads a name). */
const nameText = fc
  .array(fc.constantFrom('f', 'Q', '3', '_', '-', '.', ' ', ':', 'ü', '🦜', '/'), { maxLength: 300 })
  .map((a) => a.join(''))
  .filter((name) => !/(^|\/)\.\.?(\/|$)/.test(name.trimEnd()));

/** `head`, 'i's, then as much of the end of `tail` as fits, cut between code points: exactly `length` units. */
function fitted(head: string, tail: string, length: number): string {
  const points = Array.from(tail);
  let end = '';
  for (let i = points.length - 1; i >= 0 && head.length + end.length + points[i]!.length <= length; i--) end = points[i] + end;
  return head + 'i'.repeat(Math.max(0, length - head.length - end.length)) + end;
}

/** `text` with one UTF-16 unit inserted at `at` (modulo its length + 1). */
const insert = (text: string, unit: number, at: number): string => {
  const i = at % (text.length + 1);
  return text.slice(0, i) + String.fromCharCode(unit) + text.slice(i);
};

const segment = fc
  .array(fc.constantFrom('a', 'Z', '0', '_', '-', '.', 'ü', '🦜'), { minLength: 1, maxLength: 8 })
  .map((a) => a.join(''))
  .filter((s) => s !== '.' && s !== '..');
/** File names with a `.` or `..` segment, or a leading `/` or `\` (after the `user:` namespace and blanks). */
const climbing: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '../escape.txt',
    'a/../../escape.txt',
    '/etc/passwd',
    ' /abs.txt',
    '\\abs.txt',
    'user:../../x',
    'docs/./x.txt',
    '.',
    '..',
    '..\\x',
    'user:/etc/passwd',
    'a/b/..',
  ),
  fc
    .tuple(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.constantFrom('.', '..'), fc.nat(), fc.constantFrom('/', '\\'))
    .map(([segments, dots, at, sep]) => {
      const all = [...segments];
      all.splice(at % (all.length + 1), 0, dots);
      return all.join(sep);
    }),
  fc
    .tuple(fc.constantFrom('/', '\\', ' /', '\t\\', 'user:/', 'user:\\', 'user: /'), fc.array(segment, { minLength: 1, maxLength: 3 }))
    .map(([lead, rest]) => lead + rest.join('/')),
);

/** A value the slot must refuse: hostile ids, one past the limit or far past it, a control character or a lone surrogate anywhere. */
function badValue(slot: Slot): fc.Arbitrary<string> {
  const limit = isFileName(slot) ? nameLimit : idLimit;
  const text = isFileName(slot) ? nameText : idText;
  const control = fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.constant(0x7f));
  return fc.oneof(
    fc.constantFrom(...hostileIds, ...loneSurrogates),
    fc.tuple(text, fc.oneof(fc.constant(limit + 1), fc.integer({ min: limit + 1, max: 10_000 }))).map(([tail, length]) => fitted('', tail, length)),
    fc.tuple(text, control, fc.nat()).map(([t, unit, at]) => insert(t, unit, at)),
    fc.tuple(text, fc.integer({ min: 0xd800, max: 0xdfff }), fc.nat()).map(([t, unit, at]) => insert(t, unit, at)),
    ...(isFileName(slot) ? [climbing] : []),
  );
}

/**
 * One request: a slot and a value. A valid value is finished when sent, `fitted(head + tag, tail,
 * length)` with a tag unique to the request, so that creates never collide and each read or
 * delete has a session of its own.
 */
type IdCase =
  | { readonly valid: false; readonly slot: Slot; readonly value: string }
  | { readonly valid: true; readonly slot: Slot; readonly head: string; readonly tail: string; readonly length: number };

function validCase(slot: Slot): fc.Arbitrary<IdCase> {
  const limit = isFileName(slot) ? nameLimit : idLimit;
  return fc
    .record({
      head: isFileName(slot) ? fc.constantFrom('', '', 'user:') : fc.constant(''),
      tail: isFileName(slot) ? nameText : idText,
      length: fc.oneof(fc.constant(limit), fc.integer({ min: 24, max: limit })),
    })
    .map(({ head, tail, length }): IdCase => ({ valid: true, slot, head, tail, length }));
}

const idCase: fc.Arbitrary<IdCase> = fc
  .constantFrom(...slots)
  .chain((slot) =>
    fc.oneof({ arbitrary: badValue(slot).map((value): IdCase => ({ valid: false, slot, value })), weight: 2 }, { arbitrary: validCase(slot), weight: 1 }),
  )
  .map((c) => Object.defineProperty(c, fc.toStringMethod, { value: () => `${c.valid ? 'valid' : 'bad'} ${c.slot.operation} ${c.slot.field}` }));

/** A value for a label: where it starts, and its length in UTF-16 units. */
const shown = (value: string): string => {
  const points = Array.from(value);
  const text = points.length <= 40 ? JSON.stringify(value) : `${JSON.stringify(points.slice(0, 16).join(''))}…${JSON.stringify(points.slice(-16).join(''))}`;
  return `${text} (${value.length} units)`;
};

function call(label: string, operation: string, stream: boolean, input: unknown, expect: HttpCase['expect']): HttpCase {
  return described<HttpCase>({
    kind: 'http',
    label,
    method: 'POST',
    path: stream ? streamRoute : unaryRoute,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ class_method: operation, input })),
    expect,
  });
}

const shapes = (stream: boolean): Shapes => ({
  error: containerErrorProblem,
  result: (_c, answer) => (stream ? streamProblem(answer, true, false, (line) => containerErrorProblem(line, false)) : unaryProblem(answer)),
});

/** The session an input names (for the slots of `needsSession`). */
function sessionOf(input: Record<string, unknown>): { user_id: unknown; session_id: unknown } {
  const session = input['session'] as Record<string, unknown> | undefined;
  return session === undefined ? { user_id: input['user_id'], session_id: input['session_id'] } : { user_id: session['user_id'], session_id: session['id'] };
}

/** A refusal: INVALID_ARGUMENT naming the field, short, without the value (its first 16 code points, as they are or JSON-escaped). */
function refusalProblem(slot: Slot, value: string, answer: Answer): string | undefined {
  const error = (JSON.parse(answer.body) as { error: { status: string; message: string } }).error;
  if (error.status !== 'INVALID_ARGUMENT') return `error.status ${error.status}, not INVALID_ARGUMENT`;
  if (!error.message.includes(slot.field)) return `the message does not name ${slot.field}: ${error.message}`;
  if (answer.body.length >= 400) return `a ${answer.body.length}-character error: ${answer.body.slice(0, 200)}`;
  const start = Array.from(value).slice(0, 16).join('');
  // What the rules' own words hold (`without "." or ".." segments`, `an unpaired \ud800-\udfff escape`) quotes no value.
  const words = answer.body.replace('\\".\\" or \\"..\\"', '').replace('\\\\ud800-\\\\udfff', '');
  for (const needle of new Set([start, JSON.stringify(start).slice(1, -1)])) {
    if (needle !== '.' && needle !== '..' && words.includes(needle)) return `the answer quotes the value: ${answer.body.slice(0, 200)}`;
  }
  return undefined;
}

/** A created or read session carries the ids it was asked for, whole. */
function sessionProblem(operation: string, input: Record<string, unknown>, answer: Answer): string | undefined {
  if (!/^(async_)?(create|get)_session$/.test(operation)) return undefined;
  const output = (JSON.parse(answer.body) as { output: { id: unknown; user_id: unknown } }).output;
  const { user_id, session_id } = sessionOf(input);
  if (output.user_id !== user_id || output.id !== session_id)
    return `the session is ${shown(String(output.user_id))} / ${shown(String(output.id))}, not the ids asked for`;
  return undefined;
}

const histogram = new Histogram();

/** Sends one case (after its session, when it needs one); returns what is wrong, naming the request. */
async function run(c: IdCase, tag: string): Promise<string | undefined> {
  const { slot } = c;
  const value = c.valid ? fitted(c.head + tag, c.tail, c.length) : c.value;
  const input = slot.input(value);
  const label = `${c.valid ? 'valid' : 'bad'} ${slot.operation} ${slot.field} ${shown(value)}`;
  if (c.valid && needsSession.has(slot.operation)) {
    const setup = call(`session for ${label}`, 'async_create_session', false, sessionOf(input), { outcome: 'ok' });
    const problem = checkResult(setup, await sendHttp(target.port, setup), shapes(false));
    if (problem !== undefined) return `creating the session first: ${problem}\n    request: ${describeCase(setup)}`;
  }
  const request = call(label, slot.operation, slot.stream, input, c.valid ? { outcome: 'ok' } : { outcome: 'error', status: 400 });
  const result = await sendHttp(target.port, request);
  const answer = result.kind === 'answers' ? result.answers[0] : undefined;
  histogram.add(`${c.valid ? 'valid' : 'bad'} ${answer?.status ?? (result.kind === 'answers' ? 'closed' : result.kind)}`);
  const problem =
    checkResult(request, result, shapes(slot.stream)) ?? (c.valid ? sessionProblem(slot.operation, input, answer!) : refusalProblem(slot, value, answer!));
  return problem === undefined ? undefined : `${problem}\n    request: ${describeCase(request)}`;
}

test(`AgentApp: ${runs} requests with hostile and limit-length ids and file names, seed ${seed}`, async () => {
  const started = performance.now();
  console.log(`[fuzz agent-app ids] seed ${seed}, ${runs} requests (replay: FUZZ_SEED=${seed} FUZZ_RUNS=${runs})`);
  let round = 0;
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(idCase, { minLength: batch, maxLength: batch }), async (cases) => {
        round++;
        const problems = (await runPool([...cases.entries()], batch, ([i, c]) => run(c, `r${round}.${i}-`))).filter((p) => p !== undefined);
        if (problems.length > 0) throw new Error(`${problems.length} wrong answer(s):\n  ${problems.slice(0, 5).join('\n  ')}`);
      }),
      { seed, numRuns: Math.ceil(runs / batch), endOnFailure: true, interruptAfterTimeLimit: 60_000, markInterruptAsFailure: true },
    );
  } finally {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`[fuzz agent-app ids] seed ${seed}: ${histogram.total} requests in ${seconds} s; statuses: ${histogram}`);
  }
  expect(histogram.total).toBeGreaterThanOrEqual(runs);

  // Still serving, with ids and a file name at the limit: a turn, its session read back, an artifact, the delete.
  const ids = { user_id: 'U'.repeat(idLimit - 2) + '🦜', session_id: 'S'.repeat(idLimit) };
  const filename = `user:${'n'.repeat(nameLimit - 5)}`;
  const steps: Array<[string, boolean, Record<string, unknown>]> = [
    ['async_create_session', false, ids],
    ['async_stream_query', true, { ...ids, message: 'hi' }],
    ['async_get_session', false, ids],
    ['async_save_artifact', false, { ...ids, filename, artifact: 'x' }],
    ['async_load_artifact', false, { ...ids, filename }],
    ['async_delete_session', false, ids],
  ];
  for (const [operation, stream, input] of steps) {
    const request = call(`after the run: ${operation}`, operation, stream, input, { outcome: 'ok' });
    const result = await sendHttp(target.port, request);
    expect(checkResult(request, result, shapes(stream)), describeCase(request)).toBeUndefined();
    if (operation === 'async_get_session') expect(result.kind === 'answers' && result.answers[0]!.body).toContain('You said: hi');
    if (operation === 'async_load_artifact') expect(result.kind === 'answers' && JSON.parse(result.answers[0]!.body)).toEqual({ output: { text: 'x' } });
  }
  expect(await target.check()).toEqual({ protoKeysChanged: false, polluted: false });
  expect(target.stderr()).toBe('');
}, 120_000);
