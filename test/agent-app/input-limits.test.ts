/**
 * Issue 17 leftovers in AgentApp: input nested thousands of levels deep is refused with
 * INVALID_ARGUMENT, never a stack overflow (a 500), whether it reaches AgentApp through the
 * generated server with its `maxDepth` raised, inside the handoff's `request_json` (a string
 * the server cannot measure), or in a direct call; and a malformed `request_json` is answered
 * with the position where it stops being JSON, quoting none of its text in the answer or a log.
 */

import { contentFromWire, eventFromWire, eventToWire, partFromWire, runConfigFromWire } from '@agentgen/agent-app';
import { createEvent } from '@google/adk';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentServer, createAgentServer, type LogEntry } from '../../generated/server.js';
import { captureOutput } from '../helpers/capture-output.js';
import { drain, makeApp } from './fixtures.js';

/** JSON text of an object nested `levels` deep around `{"text":"x"}`, built as text: JSON.stringify itself would overflow. */
const deepJson = (levels: number) => '{"a":'.repeat(levels) + '{"text":"x"}' + '}'.repeat(levels);
const deepValue = (levels: number): unknown => JSON.parse(deepJson(levels));

const servers: AgentServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start() {
  const logs: LogEntry[] = [];
  const { app } = makeApp();
  // The server's own limit raised far past AgentApp's, so AgentApp's bound is what answers.
  const server = createAgentServer(app, { port: 0, host: '127.0.0.1', maxDepth: 1_000_000, logger: (entry) => logs.push(entry) });
  servers.push(server);
  const { port } = await server.listen();
  const post = async (route: 'reasoning_engine' | 'stream_reasoning_engine', body: string) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await res.text();
    // A stream refused before its first event is a status code; after it, a last error line.
    const last = text.trim().split('\n').pop()!;
    return { status: res.status, text, error: (JSON.parse(last) as { error?: { code: number; status: string; message: string } }).error };
  };
  return { app, logs, post };
}

const tooDeep = { code: 400, status: 'INVALID_ARGUMENT', message: expect.stringMatching(/nested deeper than 1000 levels/) };

describe.each([5_000, 100_000])('input nested %i levels deep', (levels) => {
  it('is refused with 400 INVALID_ARGUMENT through the generated server (maxDepth raised): state, message.parts, handoff events', async () => {
    const c = await start();
    const state = await c.post('reasoning_engine', `{"class_method":"async_create_session","input":{"user_id":"u1","state":${deepJson(levels)}}}`);
    expect([state.status, state.error]).toEqual([400, tooDeep]);

    const parts = await c.post(
      'stream_reasoning_engine',
      `{"class_method":"async_stream_query","input":{"user_id":"u1","message":{"role":"user","parts":[${deepJson(levels)}]}}}`,
    );
    expect(parts.error).toEqual(tooDeep);

    const request_json = `{"message":{"role":"user","parts":[{"text":"hi"}]},"userId":"u1","events":[${deepJson(levels)}]}`;
    const handoff = await c.post('stream_reasoning_engine', JSON.stringify({ class_method: 'streaming_agent_run_with_events', input: { request_json } }));
    expect(handoff.error).toEqual({ ...tooDeep, message: expect.stringContaining('request_json is nested deeper than 1000 levels') });

    // A client's mistake: logged at info, no stack, nothing about a call stack.
    expect(c.logs.map((entry) => [entry.level, entry.error])).toEqual([
      ['info', undefined],
      ['info', undefined],
      ['info', undefined],
    ]);
    expect(JSON.stringify(c.logs)).not.toContain('call stack');
    // And the app still serves.
    expect((await c.post('reasoning_engine', '{"class_method":"async_list_sessions","input":{"user_id":"u1"}}')).status).toBe(200);
  });

  it('is refused with INVALID_ARGUMENT by AgentApp called directly, and by each converter', async () => {
    const { app } = makeApp();
    const deep = deepValue(levels);
    await expect(app.async_create_session({ user_id: 'u1', state: deep as Record<string, unknown> })).rejects.toMatchObject({ status: 'INVALID_ARGUMENT' });
    await expect(app.async_stream_query({ user_id: 'u1', message: { role: 'user', parts: [deep] } })).rejects.toMatchObject({ status: 'INVALID_ARGUMENT' });
    await expect(app.async_stream_query({ user_id: 'u1', message: 'hi', session_events: [deep] as never })).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
    });
    await expect(app.async_add_session_to_memory({ session: { id: 's', user_id: 'u1', events: [deep] } as never })).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
    });
    const request_json = `{"message":{"role":"user","parts":[{"text":"hi"}]},"events":[${deepJson(levels)}]}`;
    await expect(app.streaming_agent_run_with_events({ request_json })).rejects.toMatchObject({ status: 'INVALID_ARGUMENT' });

    // The exported converters themselves, called without AgentApp's input check in front.
    expect(() => eventFromWire({ content: { role: 'user', parts: [deep] } })).toThrow(/nested deeper than 1000 levels/);
    expect(() => contentFromWire({ role: 'user', parts: [deep] })).toThrow(/nested deeper than 1000 levels/);
    expect(() => partFromWire(deep)).toThrow(/nested deeper than 1000 levels/);
    expect(() => runConfigFromWire(deep)).toThrow(/nested deeper than 1000 levels/);
    const adkEvent = createEvent({ author: 'x', content: { role: 'model', parts: [deep as never] } });
    expect(() => eventToWire(adkEvent)).toThrow(/nested deeper than 1000 levels/);
  });
});

describe('the bound', () => {
  it('leaves room for real input: state nested up to the limit is stored and read back through the server', async () => {
    const c = await start();
    // deepJson(998) is 999 objects: with the input object at level 1, the deepest is at level 1000.
    const created = await c.post('reasoning_engine', `{"class_method":"async_create_session","input":{"user_id":"u1","state":${deepJson(998)}}}`);
    expect(created.status).toBe(200);
    const id = (JSON.parse(created.text) as { output: { id: string } }).output.id;
    const read = await c.post('reasoning_engine', `{"class_method":"async_get_session","input":{"user_id":"u1","session_id":"${id}"}}`);
    expect(read.status).toBe(200);
    expect(read.text.split('{"a":').length - 1).toBe(998);
    const over = await c.post('reasoning_engine', `{"class_method":"async_create_session","input":{"user_id":"u1","state":${deepJson(999)}}}`);
    expect(over.error).toEqual(tooDeep);
  });

  it('a turn whose message part nests to the limit runs; one level more is refused', async () => {
    const { app } = makeApp();
    // input (1) > message (2) > parts (3) > part (4) > part.a (5) > ... : `levels` objects below the part.
    const part = (levels: number) => ({ text: 'hi', ...(deepValue(levels) as object) });
    const events = await drain(app.async_stream_query({ user_id: 'u1', message: { role: 'user', parts: [part(996)] } }));
    expect(events.length).toBeGreaterThan(0);
    await expect(app.async_stream_query({ user_id: 'u1', message: { role: 'user', parts: [part(997)] } })).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
    });
  });
});

describe('a malformed request_json', () => {
  // An unquoted token: V8's parse error quotes the text around the failure (`..."access_token": gho_Zq8v"...`).
  const token = 'gho_Zq8vKc3xN1';
  const request_json = `{"message":{"role":"user","parts":[{"text":"hi"}]},"authorizations":{"github":{"access_token": ${token}}}}`;

  it('is answered INVALID_ARGUMENT with the position only; no answer or log line quotes it', async () => {
    const c = await start();
    const { result: res, written } = await captureOutput(() =>
      c.post('stream_reasoning_engine', JSON.stringify({ class_method: 'streaming_agent_run_with_events', input: { request_json } })),
    );
    expect(res.status).toBe(400);
    expect(res.error).toEqual({
      code: 400,
      status: 'INVALID_ARGUMENT',
      message: `streaming_agent_run_with_events: request_json is not valid JSON: unexpected character at position ${request_json.indexOf(token)}.`,
    });
    expect(res.text).not.toContain(token.slice(0, 5));
    // A client's mistake: one entry, at info, without an error object (so without a stack).
    expect(c.logs).toHaveLength(1);
    expect(c.logs[0]).toMatchObject({ level: 'info', status: 400 });
    expect(c.logs[0]!.error).toBeUndefined();
    const everyLine = [...written, ...c.logs.map((entry) => JSON.stringify(entry))].join('\n');
    expect(everyLine).not.toContain(token.slice(0, 5));
  });

  it('is refused the same way when AgentApp is called directly', async () => {
    const { app } = makeApp();
    const error = await app.streaming_agent_run_with_events({ request_json }).catch((e: unknown) => e as Error);
    expect(error).toMatchObject({ status: 'INVALID_ARGUMENT', message: expect.stringContaining(`position ${request_json.indexOf(token)}`) });
    expect(JSON.stringify({ message: (error as Error).message, cause: (error as Error).cause })).not.toContain(token.slice(0, 5));
    await expect(app.streaming_agent_run_with_events({ request_json: '{"message": ' })).rejects.toMatchObject({
      message: expect.stringContaining('unexpected end of input at position 12'),
    });
  });
});
