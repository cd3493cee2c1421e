/**
 * `createAgentServer(new AgentApp({ agent }))` is a whole container: the generated server
 * on loopback, a real HTTP client, the real ADK. Checks the container routes end to end,
 * errors mapped from AgentError, and that a caller going away ends the turn.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentServer, createAgentServer } from '../../generated/server.js';
import { makeApp } from './fixtures.js';
import { weatherArgs } from './scripted-llm.js';

const servers: AgentServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(app = makeApp()) {
  const server = createAgentServer(app.app, { port: 0, host: '127.0.0.1' });
  servers.push(server);
  const { port } = await server.listen();
  const base = `http://127.0.0.1:${port}`;
  const post = (route: string, body: unknown, signal?: AbortSignal) =>
    fetch(`${base}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  const unary = async (method: string, input: unknown) => {
    const res = await post('/api/reasoning_engine', { class_method: method, input });
    return { status: res.status, body: (await res.json()) as any };
  };
  const stream = async (method: string, input: unknown) => {
    const res = await post('/api/stream_reasoning_engine', { class_method: method, input });
    const text = await res.text();
    return {
      status: res.status,
      lines: text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    };
  };
  return { ...app, port, post, unary, stream };
}

describe('AgentApp behind the generated server', () => {
  it('serves a conversation over the container routes', async () => {
    const c = await start();
    const created = await c.unary('async_create_session', { user_id: 'u1' });
    expect(created.status).toBe(200);
    const session = created.body.output;
    expect(session).toMatchObject({ user_id: 'u1', app_name: 'default-app-name', events: [] });

    const turn = await c.stream('async_stream_query', { user_id: 'u1', session_id: session.id, message: 'weather in Rome' });
    expect(turn.status).toBe(200);
    expect(turn.lines).toHaveLength(3);
    expect(turn.lines[0].content.parts[0].function_call.args).toStrictEqual(weatherArgs('Rome'));
    expect(turn.lines[2].content.parts[0].text).toContain('"city":"Rome"');

    const read = await c.unary('get_session', { user_id: 'u1', session_id: session.id });
    expect(read.body.output.events).toHaveLength(4);
    const listed = await c.unary('list_sessions', { user_id: 'u1' });
    expect(listed.body.output.sessions.map((s: { id: string }) => s.id)).toEqual([session.id]);
    expect(await c.unary('async_add_session_to_memory', { session: read.body.output })).toEqual({ status: 200, body: { output: null } });
    const found = await c.unary('async_search_memory', { user_id: 'u1', query: 'rome' });
    expect(found.body.output.memories.length).toBeGreaterThan(0);
    expect(await c.unary('async_delete_session', { user_id: 'u1', session_id: session.id })).toEqual({ status: 200, body: { output: null } });
  });

  it('answers a missing session with 404 NOT_FOUND', async () => {
    const c = await start();
    const missing = await c.unary('async_get_session', { user_id: 'u1', session_id: 'nope' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 404, status: 'NOT_FOUND', message: expect.stringContaining('"nope"') });
  });

  it('answers seeding together with a session id with 400 INVALID_ARGUMENT', async () => {
    const c = await start();
    const session = (await c.unary('async_create_session', { user_id: 'u1' })).body.output;
    const seed = [{ author: 'user', timestamp: 1_700_000_000, content: { role: 'user', parts: [{ text: 'old' }] } }];
    const res = await c.post('/api/stream_reasoning_engine', {
      class_method: 'async_stream_query',
      input: { user_id: 'u1', session_id: session.id, message: 'hi', session_events: seed },
    });
    const text = await res.text();
    const error = res.status === 200 ? JSON.parse(text.trim().split('\n').pop()!).error : JSON.parse(text).error;
    expect(error).toMatchObject({ status: 'INVALID_ARGUMENT', message: expect.stringContaining('session_events') });
  });

  it('streams handoff envelopes and keeps tokens out of the stored session', async () => {
    const c = await start();
    const { id } = (await c.unary('async_create_session', { user_id: 'u1' })).body.output;
    const request_json = JSON.stringify({
      message: { role: 'user', parts: [{ text: 'who am i' }] },
      userId: 'u1',
      sessionId: id,
      authorizations: { github: { access_token: 'secret-token-xyz' } },
    });
    const turn = await c.stream('streaming_agent_run_with_events', { request_json });
    expect(turn.status).toBe(200);
    expect(turn.lines.every((l) => l.session_id === id && l.events.length === 1)).toBe(true);
    expect(JSON.stringify(turn.lines)).toContain('"authorized":true');
    const stored = await c.unary('async_get_session', { user_id: 'u1', session_id: id });
    expect(stored.status).toBe(200);
    expect(stored.body.output.events).toHaveLength(4);
    expect(JSON.stringify(stored.body)).not.toContain('secret-token-xyz');
  });

  it('streams a model failure mid-turn as ADK error event in wire form, and keeps serving', async () => {
    const c = await start();
    const turn = await c.stream('async_stream_query', { user_id: 'u1', message: 'fail after one' });
    expect(turn.status).toBe(200);
    expect(turn.lines[0].content.parts[0].text).toBe('partial answer');
    expect(turn.lines).toHaveLength(2);
    expect(turn.lines[1]).toMatchObject({ author: 'weather_agent', error_code: 'UNKNOWN_ERROR', error_message: 'model provider unavailable' });
    const again = await c.stream('async_stream_query', { user_id: 'u1', message: 'hi' });
    expect(again.lines[0].content.parts[0].text).toBe('You said: hi');
  });

  it('ends the turn when the caller disconnects', async () => {
    const c = await start();
    // node:http, not fetch: destroying the socket is an immediate hang-up (undici lingers on abort).
    await new Promise<void>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: c.port, method: 'POST', path: '/api/stream_reasoning_engine', headers: { 'content-type': 'application/json' } },
        (res) => {
          res.once('data', () => {
            req.destroy(); // the first event arrived: hang up
            resolve();
          });
        },
      );
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.end(JSON.stringify({ class_method: 'async_stream_query', input: { user_id: 'u1', message: 'count to 200' } }));
    });
    const deadline = Date.now() + 2000;
    let last = -1;
    // The model produces one number every 20 ms; once the server aborts the turn it stops.
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (c.model.produced === last) break;
      last = c.model.produced;
    }
    expect(c.model.produced).toBe(last);
    expect(c.model.produced).toBeLessThan(10);
  });
});
