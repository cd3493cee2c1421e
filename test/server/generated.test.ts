/**
 * The generated server for the standard surface (generated/server.ts), with typed in-memory
 * handlers, driven over real HTTP on loopback; and the conformance checker against it.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe } from '../../conformance/http.js';
import { conformancePassed, formatConformanceTable, runConformance, standardOperations } from '../../conformance/index.js';
import { type AgentHandlers, type AgentServer, createAgentServer, createRequestListener, type HandlerContext } from '../../generated/server.js';
import type * as T from '../../generated/types.js';
import * as v from '../../generated/validators.js';
import { memorySessions } from '../helpers/memory-sessions.js';
import { envelope, parseLines } from './fixture.js';

/** A small, honest in-memory implementation of the thirteen operations. */
function memoryAgent(): AgentHandlers {
  function* turn(input: T.StreamQueryInput): Generator<T.Event> {
    const text = typeof input.message === 'string' ? input.message : JSON.stringify(input.message);
    yield {
      id: 'e1',
      author: 'agent',
      invocation_id: 'i1',
      timestamp: 1,
      content: { role: 'model', parts: [{ function_call: { id: 'c1', name: 'lookup', args: { q: text } } }] },
    };
    yield { id: 'e2', author: 'agent', invocation_id: 'i1', timestamp: 2, content: { role: 'model', parts: [{ text: `you said: ${text}` }] } };
  }
  return {
    ...memorySessions({ appName: 'test-app', notFound: (id) => `session ${id} not found` }),
    async_search_memory: async (input) => ({ memories: [{ content: { role: 'user', parts: [{ text: input.query }] } }] }),
    stream_query: (input) => turn(input),
    async *async_stream_query(input, context: HandlerContext) {
      for (const event of turn(input)) {
        if (context.signal.aborted) return;
        await Promise.resolve();
        yield event;
      }
    },
    async *streaming_agent_run_with_events(input) {
      const request = JSON.parse(input.request_json) as { message?: T.Content; session_id?: string };
      for (const event of turn({ message: request.message ?? '', user_id: 'u' })) {
        yield { events: [event], session_id: request.session_id ?? 'temp' };
      }
    },
  };
}

let server: AgentServer;
let url = '';
beforeAll(async () => {
  server = createAgentServer(memoryAgent(), { host: '127.0.0.1', port: 0 });
  const { port } = await server.listen();
  url = `http://127.0.0.1:${port}`;
});
afterAll(() => server.close());

const unary = async (name: string, input?: unknown) => {
  const res = await probe(url, { path: '/api/reasoning_engine', body: envelope(name, input) });
  return { status: res.status, body: JSON.parse(res.body) as { output?: unknown; error?: { message: string; status: string } } };
};

describe('generated server, standard surface', () => {
  it('runs the session lifecycle on the sync route, results valid against the generated validators', async () => {
    const created = await unary('async_create_session', { user_id: 'u1', state: { lang: 'en' } });
    expect(created.status).toBe(200);
    const session = v.session.parse(created.body.output);
    expect(session).toMatchObject({ user_id: 'u1', app_name: 'test-app', state: { lang: 'en' }, events: [] });
    expect(v.session.parse((await unary('get_session', { user_id: 'u1', session_id: session.id })).body.output).id).toBe(session.id);
    const listed = await unary('async_list_sessions', { user_id: 'u1' });
    expect(v.sessionList.parse(listed.body.output).sessions).toHaveLength(1);
    expect(await unary('async_delete_session', { user_id: 'u1', session_id: session.id })).toEqual({ status: 200, body: { output: null } });
    const missing = await unary('async_get_session', { user_id: 'u1', session_id: session.id });
    expect(missing).toEqual({ status: 404, body: { error: { code: 404, status: 'NOT_FOUND', message: `session ${session.id} not found` } } });
  });

  it('validates inputs with the generated validators before any handler', async () => {
    const res = await unary('create_session', { session_id: 's' });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toMatch(/^invalid input for "create_session": user_id: /);
    const memory = await unary('async_add_session_to_memory', { session: { id: 's' } });
    expect(memory.body.error?.message).toMatch(/session\.(app_name|user_id|events)/);
  });

  it('streams stream_query and async_stream_query as NDJSON events', async () => {
    for (const name of ['stream_query', 'async_stream_query']) {
      const res = await probe(url, { path: '/api/stream_reasoning_engine', body: envelope(name, { message: 'hi', user_id: 'u1' }) });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      const events = parseLines(res.body).map((line) => v.event.parse(line));
      expect(events.map((e) => e.id)).toEqual(['e1', 'e2']);
      expect(events[0]?.content?.parts?.[0]?.function_call?.args).toEqual({ q: 'hi' });
    }
  });

  it('streams handoff envelopes for streaming_agent_run_with_events', async () => {
    const request_json = JSON.stringify({ message: { role: 'user', parts: [{ text: 'hello' }] }, session_id: 's9' });
    const res = await probe(url, { path: '/api/stream_reasoning_engine', body: envelope('streaming_agent_run_with_events', { request_json }) });
    const envelopes = parseLines(res.body).map((line) => v.handoffEnvelope.parse(line));
    expect(envelopes).toHaveLength(2);
    expect(envelopes.every((e) => e.session_id === 's9' && e.events.length === 1)).toBe(true);
  });

  it('refuses each mode on the other route and undeclared names', async () => {
    expect((await probe(url, { path: '/api/stream_reasoning_engine', body: envelope('create_session', { user_id: 'u' }) })).status).toBe(400);
    expect((await probe(url, { path: '/api/reasoning_engine', body: envelope('stream_query', { message: 'x', user_id: 'u' }) })).status).toBe(400);
    const unknown = await unary('query', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.message).toContain('declared operations: async_add_session_to_memory, async_create_session');
  });

  it('passes the conformance checker, with samples for the success cases', async () => {
    const results = await runConformance({
      url,
      operations: standardOperations,
      samples: {
        create_session: { user_id: 'c' },
        async_create_session: { user_id: 'c' },
        list_sessions: { user_id: 'c' },
        stream_query: { message: 'hi', user_id: 'c' },
        async_stream_query: { message: 'hi', user_id: 'c' },
      },
    });
    expect(
      results.filter((r) => r.status === 'fail'),
      formatConformanceTable(results),
    ).toEqual([]);
    // Operations without a sample run on inputs built from their schemas; where this agent refuses
    // one (no such session), the cases that need its result are not checked, never passed.
    const notChecked = results.filter((r) => r.status === 'not-checked');
    expect(
      notChecked.every((r) => r.successPath && r.observed.includes("did not succeed with the checker's input")),
      formatConformanceTable(notChecked),
    ).toBe(true);
    expect(conformancePassed(results)).toBe(true);
    // What the real runtime sends (google/adk-js PR #440): a doubled Content-Type, and liveness GETs.
    const platform = [
      'doubled Content-Type on /api/reasoning_engine',
      'doubled Content-Type on /api/stream_reasoning_engine',
      'liveness GET /',
      'liveness GET /health',
    ];
    expect(platform.map((name) => [name, results.find((r) => r.case === name)?.status])).toEqual(platform.map((name) => [name, 'pass']));
  });

  it('answers 200 to a real call under each doubled form of the JSON content type, on both routes', async () => {
    const forms = ['application/json,application/json', 'application/json, application/json', 'application/json; charset=utf-8,application/json'];
    for (const type of [...forms, ['application/json', 'application/json']]) {
      const unary = await probe(url, {
        path: '/api/reasoning_engine',
        body: envelope('async_create_session', { user_id: 'ct' }),
        headers: { 'content-type': type },
      });
      const stream = await probe(url, {
        path: '/api/stream_reasoning_engine',
        body: envelope('async_stream_query', { user_id: 'ct', message: 'hi' }),
        headers: { 'content-type': type },
      });
      expect([type, unary.status, stream.status, parseLines(stream.body).length]).toEqual([type, 200, 200, 2]);
    }
    for (const path of ['/', '/health']) expect([path, (await probe(url, { path, method: 'GET' })).status]).toEqual([path, 200]);
  });

  it('passes the conformance checker without samples, judging what it can', async () => {
    const results = await runConformance({ url });
    expect(
      results.filter((r) => r.status === 'fail'),
      formatConformanceTable(results),
    ).toEqual([]);
    expect(results.filter((r) => r.status === 'pass').length).toBeGreaterThan(40);
  });

  it('exports a bare request listener that serves when mounted in another node:http server', async () => {
    const outer = createServer(createRequestListener(memoryAgent()));
    await new Promise<void>((resolve) => outer.listen(0, '127.0.0.1', resolve));
    try {
      const address = outer.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      const res = await probe(`http://127.0.0.1:${port}`, {
        path: '/api/reasoning_engine',
        body: envelope('async_search_memory', { user_id: 'u', query: 'q' }),
      });
      expect(JSON.parse(res.body)).toEqual({ output: { memories: [{ content: { role: 'user', parts: [{ text: 'q' }] } }] } });
    } finally {
      outer.closeAllConnections();
      await new Promise((resolve) => outer.close(resolve));
    }
  });
});
