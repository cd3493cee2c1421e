/**
 * `validateResults`: unary results and streamed events checked against the declared `output`, over
 * real HTTP. On: a mismatch is a 500 INTERNAL naming the operation and the field, logged, never a
 * partial answer (a stream keeps the valid events before it and ends with the error line). Off:
 * the handler's values go out as they are. Default: on, except with NODE_ENV=production. An
 * operation without `output` (any JSON, or a table generated before `output` existed) is never
 * checked. The same cases then run through a generated server (the `custom` fixture).
 */

import { createContainer, type HandlerContext, type LogEntry, type ServerOperation, type ServerOperationTable } from '@agentgen/runtime/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { probe } from '../../conformance/http.js';
import * as custom from '../fixtures/custom/expected/server.js';
import { closeAll, envelope, parseLines, sleep, start } from './fixture.js';

const unaryRoute = '/api/reasoning_engine';
const streamRoute = '/api/stream_reasoning_engine';

/** The request decides the result: `reply` is returned, `events` are yielded; `id` names the run. */
const request = z.looseObject({ id: z.string().optional(), reply: z.unknown().optional(), events: z.array(z.unknown()).optional() });
type Request = z.infer<typeof request>;
const answer = z.object({ answer: z.string(), items: z.array(z.object({ n: z.number() })).optional() });
const step = z.object({ step: z.string() });

const table: ServerOperationTable = new Map<string, ServerOperation>([
  ['result', { kind: 'unary', input: request, output: answer }],
  ['result_async', { kind: 'unary', input: request, output: answer }],
  ['nothing', { kind: 'unary', input: request, output: z.null() }],
  ['untyped', { kind: 'unary', input: request }],
  ['steps', { kind: 'stream', input: request, output: step }],
  ['steps_async', { kind: 'stream', input: request, output: step }],
  ['untyped_stream', { kind: 'stream', input: request }],
]);

/** Per run id: events pulled from the producer, whether its `finally` ran, whether its signal was aborted. */
const pulled = new Map<string, number>();
const closed = new Set<string>();
const aborted = new Set<string>();

const handlers = {
  result: (input: Request) => input.reply,
  result_async: async (input: Request) => {
    await sleep(1);
    return input.reply;
  },
  nothing: (input: Request) => input.reply,
  untyped: (input: Request) => input.reply,
  *steps(input: Request) {
    const id = input.id ?? '';
    try {
      for (const event of input.events ?? []) {
        pulled.set(id, (pulled.get(id) ?? 0) + 1);
        yield event;
      }
    } finally {
      closed.add(id);
    }
  },
  async *steps_async(input: Request, context: HandlerContext) {
    const id = input.id ?? '';
    try {
      for (const event of input.events ?? []) {
        await sleep(1);
        pulled.set(id, (pulled.get(id) ?? 0) + 1);
        yield event;
      }
    } finally {
      closed.add(id);
      if (context.signal.aborted) aborted.add(id);
    }
  },
  *untyped_stream(input: Request) {
    yield* input.events ?? [];
  },
};

const logs = new Map<string, LogEntry[]>();
async function serve(name: string, options: { validateResults?: boolean } = {}): Promise<string> {
  const entries: LogEntry[] = [];
  logs.set(name, entries);
  return (await start(table, handlers, { ...options, logger: (entry) => entries.push(entry) })).url;
}

afterEach(() => {
  vi.unstubAllEnvs();
});
afterAll(closeAll);

interface ErrorBody {
  readonly error: { readonly code: number; readonly status: string; readonly message: string };
}

const unaryPrefix = (op: string) => `operation "${op}" returned a result that does not match its declared output: `;
const eventPrefix = (op: string, n: number) => `operation "${op}" streamed event ${n}, which does not match its declared output: `;

/** [case, operation, the handler's result, on: undefined when it passes, else the message after the prefix]. */
const unaryCases: Array<[string, string, unknown, RegExp | undefined]> = [
  ['a valid result', 'result', { answer: 'yes' }, undefined],
  ['keys the schema does not declare (sent as they are)', 'result', { answer: 'yes', extra: 1 }, undefined],
  ['a field of the wrong type', 'result', { answer: 42 }, /^answer: .*expected string, received number$/],
  ['a missing field', 'result', { items: [] }, /^answer: /],
  ['a nested field', 'result', { answer: 'a', items: [{ n: 1 }, { n: '2' }] }, /^items\.1\.n: .*expected number/],
  ['not an object', 'result', 'text', /^\(result\): .*expected object/],
  ['nothing where an object is declared', 'result', undefined, /^\(result\): .*expected object, received null/],
  ['an async handler', 'result_async', { answer: false }, /^answer: /],
  ['nothing where null is declared', 'nothing', undefined, undefined],
  ['a value where null is declared', 'nothing', { a: 1 }, /^\(result\): .*expected null/],
  ['no declared output: anything', 'untyped', { answer: 42 }, undefined],
];

/** [case, operation, the events produced, on: undefined when all pass, else the 1-based index of the first bad one and the message after the prefix]. */
const streamCases: Array<[string, string, unknown[], [number, RegExp] | undefined]> = [
  ['valid events (sync)', 'steps', [{ step: 'a' }, { step: 'b' }], undefined],
  ['valid events (async)', 'steps_async', [{ step: 'a' }, { step: 'b' }], undefined],
  ['a bad third event (sync)', 'steps', [{ step: 'a' }, { step: 'b' }, { step: 3 }, { step: 'd' }], [3, /^step: .*expected string, received number$/]],
  ['a bad third event (async)', 'steps_async', [{ step: 'a' }, { step: 'b' }, { nope: 1 }, { step: 'd' }], [3, /^step: /]],
  ['a bad first event', 'steps', [['not', 'an', 'object'], { step: 'b' }], [1, /^\(event\): .*expected object/]],
  ['no declared output: anything', 'untyped_stream', [1, 'two', { step: 3 }], undefined],
];

let runs = 0;
const runId = () => `run-${++runs}`;
const callUnary = (url: string, op: string, reply: unknown) => probe(url, { path: unaryRoute, body: envelope(op, reply === undefined ? {} : { reply }) });

describe('validateResults: true', () => {
  let url = '';
  beforeAll(async () => {
    url = await serve('on', { validateResults: true });
  });

  it.each(unaryCases)('unary: %s', async (_, op, reply, failure) => {
    const res = await callUnary(url, op, reply);
    // Whole bodies only: the length is declared and the body parses.
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
    const body = JSON.parse(res.body) as { output?: unknown } & Partial<ErrorBody>;
    if (failure === undefined) {
      expect(res.status).toBe(200);
      expect(body).toEqual({ output: reply ?? null });
      return;
    }
    expect(res.status).toBe(500);
    expect(Object.keys(body)).toEqual(['error']);
    const { error } = body as ErrorBody;
    expect(error.code).toBe(500);
    expect(error.status).toBe('INTERNAL');
    expect(error.message.startsWith(unaryPrefix(op))).toBe(true);
    expect(error.message.slice(unaryPrefix(op).length)).toMatch(failure);
    const entry = logs.get('on')?.findLast((e) => e.operation === op && e.status === 500);
    expect(entry).toMatchObject({ level: 'error', message: error.message, path: unaryRoute });
    expect(entry?.error).toBeInstanceOf(Error);
  });

  it.each(streamCases)('stream: %s', async (_, op, events, failure) => {
    const id = runId();
    const res = await probe(url, { path: streamRoute, body: envelope(op, { id, events }) });
    if (failure === undefined) {
      expect(res.status).toBe(200);
      expect(parseLines(res.body)).toEqual(events);
      return;
    }
    const [bad, pattern] = failure;
    const prefix = eventPrefix(op, bad);
    let error: ErrorBody['error'];
    if (bad === 1) {
      // Nothing was sent yet: the whole answer is the error.
      expect(res.status).toBe(500);
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
      ({ error } = JSON.parse(res.body) as ErrorBody);
    } else {
      // The valid events before it, then the error as the last line.
      expect(res.status).toBe(200);
      const lines = parseLines(res.body);
      expect(lines.slice(0, -1)).toEqual(events.slice(0, bad - 1));
      expect(Object.keys(lines.at(-1) as object)).toEqual(['error']);
      ({ error } = lines.at(-1) as ErrorBody);
    }
    expect(error.code).toBe(500);
    expect(error.status).toBe('INTERNAL');
    expect(error.message.startsWith(prefix)).toBe(true);
    expect(error.message.slice(prefix.length)).toMatch(pattern);
    // The producer was stopped at the bad event: nothing more pulled, its `finally` ran.
    expect(pulled.get(id)).toBe(bad);
    await vi.waitFor(() => expect(closed.has(id)).toBe(true));
    if (op === 'steps_async') expect(aborted.has(id)).toBe(true);
    const entry = logs.get('on')?.findLast((e) => e.operation === op && e.status === 500);
    expect(entry).toMatchObject({ level: 'error', message: error.message, path: streamRoute });
  });
});

describe('validateResults: false', () => {
  let url = '';
  beforeAll(async () => {
    url = await serve('off', { validateResults: false });
  });

  it.each(unaryCases)('unary: %s goes out as the handler returned it', async (_, op, reply) => {
    const res = await callUnary(url, op, reply);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ output: reply ?? null });
  });

  it.each(streamCases)('stream: %s goes out as the handler produced it', async (_, op, events) => {
    const id = runId();
    const res = await probe(url, { path: streamRoute, body: envelope(op, { id, events }) });
    expect(res.status).toBe(200);
    expect(parseLines(res.body)).toEqual(events);
    if (op !== 'untyped_stream') expect(pulled.get(id)).toBe(events.length);
  });
});

describe('validateResults by default', () => {
  const invalid = { answer: 42 };
  const status = async (url: string) => (await callUnary(url, 'result', invalid)).status;

  it.each([['development'], ['test'], [undefined]])('is on with NODE_ENV=%s', async (env) => {
    vi.stubEnv('NODE_ENV', env);
    expect(await status(await serve(`default-${String(env)}`))).toBe(500);
  });

  it('is off with NODE_ENV=production, as read when the server is built', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const url = await serve('default-production');
    expect(await status(url)).toBe(200);
    vi.unstubAllEnvs();
    expect(await status(url)).toBe(200);
  });

  it('yields to the option either way', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    expect(await status(await serve('production-on', { validateResults: true }))).toBe(500);
    vi.stubEnv('NODE_ENV', 'development');
    expect(await status(await serve('development-off', { validateResults: false }))).toBe(200);
  });
});

describe('a generated server (fixture custom)', () => {
  /** Deliberately wrong values, past the handler types. */
  const wrong = <T>(value: unknown): T => value as T;
  const handlers: custom.AgentHandlers = {
    query: (input) => wrong(input.message === 'bad' ? { answer: 7 } : { answer: input.message }),
    async *plan_trip(input) {
      yield { step: 'fly' };
      yield wrong({ step: input.destination === 'bad' ? null : 'stay' });
    },
    async_ping: () => undefined,
    *stream_anything() {
      yield { anything: [1, 'two'] };
    },
  };
  const options = { host: '127.0.0.1', port: 0, validateResults: true } as const;
  const servers: Array<{ close(): Promise<void> }> = [];
  afterAll(() => Promise.all(servers.map((server) => server.close())));
  const serveGenerated = async (server: { listen(): Promise<{ port: number }>; close(): Promise<void> }) => {
    servers.push(server);
    return `http://127.0.0.1:${(await server.listen()).port}`;
  };

  it('declares output validators, except for an output of any JSON', () => {
    expect(custom.operations.get('query')?.output).toBeDefined();
    expect(custom.operations.get('plan_trip')?.output).toBeDefined();
    expect(custom.operations.get('async_ping')?.output).toBeDefined();
    expect(custom.operations.get('stream_anything')).toBeDefined();
    expect(custom.operations.get('stream_anything')?.output).toBeUndefined();
  });

  it('checks results and events against the spec', async () => {
    const url = await serveGenerated(custom.createAgentServer(handlers, options));
    const good = await probe(url, { path: unaryRoute, body: envelope('query', { message: 'hi' }) });
    expect(JSON.parse(good.body)).toEqual({ output: { answer: 'hi' } });
    const bad = await probe(url, { path: unaryRoute, body: envelope('query', { message: 'bad' }) });
    expect(bad.status).toBe(500);
    expect((JSON.parse(bad.body) as ErrorBody).error.message).toMatch(/^operation "query" returned a result that does not match its declared output: answer: /);
    const trip = await probe(url, { path: streamRoute, body: envelope('plan_trip', { destination: 'bad', travellers: [] }) });
    const lines = parseLines(trip.body);
    expect(lines[0]).toEqual({ step: 'fly' });
    expect((lines[1] as ErrorBody).error.message).toMatch(/^operation "plan_trip" streamed event 2, which does not match its declared output: step: /);
    expect(lines).toHaveLength(2);
    expect(parseLines((await probe(url, { path: streamRoute, body: envelope('stream_anything') })).body)).toEqual([{ anything: [1, 'two'] }]);
  });

  it('checks nothing for a table generated before `output` existed', async () => {
    const older: ServerOperationTable = new Map([...custom.operations].map(([name, { kind, input }]) => [name, { kind, input }]));
    const url = await serveGenerated(createContainer(older, handlers, options));
    const bad = await probe(url, { path: unaryRoute, body: envelope('query', { message: 'bad' }) });
    expect(bad.status).toBe(200);
    expect(JSON.parse(bad.body)).toEqual({ output: { answer: 7 } });
    const trip = await probe(url, { path: streamRoute, body: envelope('plan_trip', { destination: 'bad', travellers: [] }) });
    expect(parseLines(trip.body)).toEqual([{ step: 'fly' }, { step: null }]);
  });
});
