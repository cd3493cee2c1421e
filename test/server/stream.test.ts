/** The stream route: framing, media type, promptness, coalescing, errors before the stream starts and mid-stream. */

import { AgentError, type LogEntry, type ServerOperationTable } from '@agentgen/runtime/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openStream, probe } from '../../conformance/http.js';
import { closeAll, envelope, parseLines, sleep, start } from './fixture.js';

/** A promise with its resolver, to hand control between producer and test without timing. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const gates: { first: ReturnType<typeof gate>; ack: ReturnType<typeof gate> } = { first: gate(), ack: gate() };
const ops = {
  sync_gen: function* (input: { n: number }) {
    for (let i = 0; i < input.n; i++) yield { i };
  },
  async_gen: async function* (input: { n: number }) {
    for (let i = 0; i < input.n; i++) {
      await Promise.resolve();
      yield { i };
    }
  },
  promise_of_gen: async (input: { n: number }) => {
    await sleep(1);
    return ops.async_gen(input);
  },
  array: (input: { n: number }) => Array.from({ length: input.n }, (_, i) => ({ i })),
  set: (input: { n: number }) => new Set(Array.from({ length: input.n }, (_, i) => i)),
  promise_of_array: async (input: { n: number }) => ops.array(input),
  timer_gen: async function* (input: { n: number }) {
    for (let i = 0; i < input.n; i++) {
      await sleep(2);
      yield { i };
    }
  },
  slow_start: async function* () {
    await gates.first.promise;
    yield { first: true };
  },
  lockstep: async function* () {
    yield { step: 1 };
    // Only a server that sent step 1 already lets the test open this gate.
    await gates.ack.promise;
    yield { step: 2 };
  },
  fails_midway: async function* () {
    yield { i: 0 };
    await sleep(1);
    yield { i: 1 };
    throw new Error('model went away');
  },
  fails_midway_agent_error: function* () {
    yield { i: 0 };
    throw new AgentError('RESOURCE_EXHAUSTED', 'quota');
  },
  throws_at_once: () => {
    throw new Error('no stream for you');
  },
  gen_throws_first_tick: async function* () {
    throw new Error('before any event');
    // biome-ignore lint/correctness/noUnreachable: the yield makes this a generator that throws on its first tick
    yield {};
  },
  gen_throws_after_wait: async function* () {
    await sleep(5);
    throw new Error('after headers');
    // biome-ignore lint/correctness/noUnreachable: the yield makes this a generator that throws after a wait
    yield {};
  },
  /** An async handler that checks something over I/O (AgentApp finding a session) before it has events. */
  promise_rejects_after_wait: async () => {
    await sleep(5);
    throw new AgentError('INVALID_ARGUMENT', 'async_stream_query: session_id was refused');
  },
  not_iterable: () => ({ i: 1 }),
  a_string: () => 'abc',
  undefined_events: function* () {
    yield undefined;
    yield null;
    yield 'text';
  },
};

const table: ServerOperationTable = new Map(
  Object.keys(ops).map((name) => [name, { kind: 'stream' as const, input: z.object({ n: z.number().int().optional() }) }]),
);
let url = '';
const logged: LogEntry[] = [];
/** What a caller sees of an unexpected failure; the message is logged under the id. */
const internalError = /^Internal error \(id ([0-9a-f]+)\)$/;
beforeAll(async () => {
  ({ url } = await start(table, ops, { logger: (entry) => logged.push(entry) }));
});
afterAll(closeAll);

const stream = (name: string, input: object = {}) => probe(url, { path: '/api/stream_reasoning_engine', body: envelope(name, input) });
const expected = (n: number) => Array.from({ length: n }, (_, i) => ({ i }));

describe('framing', () => {
  it.each(['sync_gen', 'async_gen', 'promise_of_gen', 'array', 'promise_of_array'])('%s: one JSON line per event, application/json', async (name) => {
    const res = await stream(name, { n: 5 });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body.endsWith('\n')).toBe(true);
    expect(
      res.body
        .split('\n')
        .slice(0, -1)
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(expected(5));
  });

  it('streams any iterable, and non-object events as JSON values', async () => {
    expect(parseLines((await stream('set', { n: 3 })).body)).toEqual([0, 1, 2]);
    expect((await stream('undefined_events')).body).toBe('null\nnull\n"text"\n');
  });

  it('answers an empty stream with 200 and no lines', async () => {
    const res = await stream('sync_gen', { n: 0 });
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
  });
});

describe('promptness and coalescing', () => {
  it('sends the headers before the first event exists', async () => {
    gates.first = gate();
    const open = await openStream(url, { path: '/api/stream_reasoning_engine', body: envelope('slow_start') });
    expect(open.status).toBe(200);
    expect(open.headers['content-type']).toBe('application/json');
    gates.first.open();
    expect(JSON.parse((await open.nextLine()) ?? '')).toEqual({ first: true });
    expect(await open.nextLine()).toBeUndefined();
  });

  it('sends each event as it is produced', async () => {
    gates.ack = gate();
    const open = await openStream(url, { path: '/api/stream_reasoning_engine', body: envelope('lockstep') });
    expect(JSON.parse((await open.nextLine(5_000)) ?? '')).toEqual({ step: 1 });
    gates.ack.open();
    expect(JSON.parse((await open.nextLine()) ?? '')).toEqual({ step: 2 });
  });

  it('writes events produced in one tick together', async () => {
    for (const name of ['sync_gen', 'async_gen', 'array']) {
      const res = await stream(name, { n: 500 });
      expect(parseLines(res.body)).toEqual(expected(500));
      expect(res.chunks, name).toBe(1);
    }
  });

  it('writes events produced in different ticks separately', async () => {
    const res = await stream('timer_gen', { n: 5 });
    expect(parseLines(res.body)).toEqual(expected(5));
    expect(res.chunks).toBeGreaterThanOrEqual(5);
  });

  it('splits a very large same-tick burst into bounded writes', async () => {
    const res = await stream('sync_gen', { n: 50_000 });
    expect(parseLines(res.body)).toHaveLength(50_000);
    expect(res.chunks).toBeGreaterThan(1);
  });
});

describe('errors', () => {
  it('ends a failing stream with a last error line after the events', async () => {
    const res = await stream('fails_midway');
    expect(res.status).toBe(200);
    expect(parseLines(res.body)).toEqual([{ i: 0 }, { i: 1 }, { error: { code: 500, status: 'INTERNAL', message: expect.stringMatching(internalError) } }]);
    expect(logged.find((e) => e.operation === 'fails_midway')?.message).toBe('operation "fails_midway" failed: model went away');
  });

  it('keeps the status of an AgentError in the last line', async () => {
    const res = await stream('fails_midway_agent_error');
    expect(parseLines(res.body)).toEqual([{ i: 0 }, { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'quota' } }]);
  });

  it.each([
    ['throws_at_once', 'no stream for you'],
    ['gen_throws_first_tick', 'before any event'],
    ['not_iterable', 'returned an object, not an iterable'],
    ['a_string', 'returned a string, not an iterable'],
  ])('%s: a plain 500 when nothing was sent yet', async (name, message) => {
    const res = await stream(name);
    expect(res.status).toBe(500);
    const body = JSON.parse(res.body) as { error: { code: number; status: string; message: string } };
    expect(body.error).toMatchObject({ code: 500, status: 'INTERNAL' });
    const id = internalError.exec(body.error.message)?.[1];
    expect(id).toBeDefined();
    // The caller sees only the id; the message goes to the logger under it.
    expect(logged.find((e) => e.errorId === id)?.message).toContain(message);
  });

  it('an error after the headers went out is the only line', async () => {
    const res = await stream('gen_throws_after_wait');
    expect(res.status).toBe(200);
    expect(parseLines(res.body)).toEqual([{ error: { code: 500, status: 'INTERNAL', message: expect.stringMatching(internalError) } }]);
    expect(logged.find((e) => e.operation === 'gen_throws_after_wait')?.message).toBe('operation "gen_throws_after_wait" failed: after headers');
  });

  it('answers with its own status what a handler promise rejects with, however late: the stream is not accepted before it resolves', async () => {
    const res = await stream('promise_rejects_after_wait');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ error: { code: 400, status: 'INVALID_ARGUMENT', message: 'async_stream_query: session_id was refused' } });
    // A promise that resolves late streams as ever.
    const late = await stream('promise_of_gen', { n: 3 });
    expect([late.status, parseLines(late.body)]).toEqual([200, expected(3)]);
  });

  it('keeps serving after stream failures', async () => {
    await Promise.all(['fails_midway', 'throws_at_once', 'gen_throws_first_tick'].map((name) => stream(name)));
    expect(parseLines((await stream('sync_gen', { n: 2 })).body)).toEqual(expected(2));
  });
});
