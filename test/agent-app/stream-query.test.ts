/**
 * Contract 4.7 (async_stream_query / stream_query) over a real ADK Runner: one turn streams
 * several events — tool call with its exact arguments, tool result, model answer — as they
 * occur; plus DESIGN.md's inputs: text or content message, session creation, seeding.
 */

import type { WireEvent } from '@agentgen/agent-app';
import { type GetSessionRequest, InMemorySessionService } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { drain, makeApp, textOf } from './fixtures.js';
import { weatherArgs } from './scripted-llm.js';

const callsOf = (events: WireEvent[]) =>
  events.flatMap((event) => ((event.content?.['parts'] ?? []) as Array<Record<string, any>>).filter((p) => p['function_call']));

/** Every key outside user data is snake_case and no value is null (the reference dump). */
function expectWireForm(value: unknown, path = ''): void {
  if (Array.isArray(value)) {
    for (const item of value) expectWireForm(item, path);
    return;
  }
  expect(value, path).not.toBeNull();
  if (typeof value !== 'object' || value === null) return;
  if (/function_call\.args$|function_response\.response$|state_delta$/.test(path)) return;
  for (const [key, child] of Object.entries(value)) {
    expect(key, `${path}.${key}`).toMatch(/^[a-z0-9_]+$/);
    expectWireForm(child, path ? `${path}.${key}` : key);
  }
}

describe('async_stream_query (4.7)', () => {
  it('streams a tool call with its exact arguments, the tool result and the answer, in order', async () => {
    const { app } = makeApp();
    const events = await drain(app.async_stream_query({ user_id: 'u1', message: 'What is the weather in Paris?' }));

    expect(events).toHaveLength(3);
    const [call, result, answer] = events as [WireEvent, WireEvent, WireEvent];
    const fc = callsOf([call])[0]!['function_call'];
    expect(fc.name).toBe('get_weather');
    // Exact arguments: camelCase keys, nesting and arrays untouched by the wire conversion.
    expect(fc.args).toStrictEqual(weatherArgs('Paris'));
    expect(typeof fc.id).toBe('string');
    const fr = ((result.content!['parts'] as any[])[0] as Record<string, any>)['function_response'];
    expect(fr).toMatchObject({ id: fc.id, name: 'get_weather', response: { city: 'Paris', sky: 'clear', forecastDays: 2 } });
    expect(textOf(answer)).toBe('Result of get_weather: {"city":"Paris","sky":"clear","forecastDays":2}');
    for (const event of events) {
      expectWireForm(event);
      expect(event.author).toBe('weather_agent');
      // Seconds, not milliseconds: within a minute of now.
      expect(Math.abs(event.timestamp - Date.now() / 1000)).toBeLessThan(60);
    }
  });

  it('creates a session when none is given, and the turn is stored in it', async () => {
    const { app } = makeApp();
    const events = await drain(app.async_stream_query({ user_id: 'u1', message: 'hello' }));
    expect(textOf(events[0]!)).toBe('You said: hello');

    const { sessions } = await app.async_list_sessions({ user_id: 'u1' });
    expect(sessions).toHaveLength(1);
    const stored = await app.async_get_session({ user_id: 'u1', session_id: sessions[0]!.id });
    expect(stored.events.map((e) => e.author)).toEqual(['user', 'weather_agent']);
    expect(stored.events[1]!.id).toBe(events[0]!.id);
  });

  it('continues a given session', async () => {
    const { app } = makeApp();
    const session = await app.async_create_session({ user_id: 'u1' });
    await drain(app.async_stream_query({ user_id: 'u1', session_id: session.id, message: 'one' }));
    await drain(app.async_stream_query({ user_id: 'u1', session_id: session.id, message: 'two' }));
    const stored = await app.async_get_session({ user_id: 'u1', session_id: session.id });
    expect(stored.events.map(textOf)).toEqual(['one', 'You said: one', 'two', 'You said: two']);
  });

  it('reads a given session from the store once a turn: the read that finds it is the one the runner is given', async () => {
    const sessionService = new InMemorySessionService();
    const reads: Array<GetSessionRequest['config']> = [];
    const getSession = sessionService.getSession.bind(sessionService);
    sessionService.getSession = (request) => (reads.push(request.config), getSession(request));
    const { app } = makeApp({ sessionService });
    const session = await app.async_create_session({ user_id: 'u1', session_id: 'read-once' });
    await drain(app.async_stream_query({ user_id: 'u1', session_id: session.id, message: 'one' }));
    reads.length = 0;
    await drain(app.async_stream_query({ user_id: 'u1', session_id: session.id, message: 'two' }));
    // Before issue 48: AgentApp's existence check ({ numRecentEvents: 1 }), then the runner's whole read.
    expect(reads).toEqual([undefined]);
  });

  it('accepts a content object as the message, in either spelling', async () => {
    const { app } = makeApp();
    const snake = await drain(app.async_stream_query({ user_id: 'u1', message: { role: 'user', parts: [{ text: 'hi' }] } }));
    expect(textOf(snake[0]!)).toBe('You said: hi');
    const noRole = await drain(app.async_stream_query({ user_id: 'u1', message: { parts: [{ text: 'yo' }] } }));
    expect(textOf(noRole[0]!)).toBe('You said: yo');
  });

  it('delivers each event as it occurs, not after the turn', async () => {
    const { app, model } = makeApp();
    const stream = await app.async_stream_query({ user_id: 'u1', message: 'count to 4' });
    const seenWhenFirstArrived: number[] = [];
    const texts: string[] = [];
    for await (const event of stream) {
      if (texts.length === 0) seenWhenFirstArrived.push(model.produced);
      texts.push(textOf(event));
    }
    expect(texts).toEqual(['1', '2', '3', '4']);
    // When the first event reached us the model had produced only it.
    expect(seenWhenFirstArrived).toEqual([1]);
  });

  it('seeds a new session with session_events', async () => {
    const { app } = makeApp();
    const seed = [
      { id: 'seed-1', invocation_id: 'old', author: 'user', timestamp: 1_700_000_000.25, content: { role: 'user', parts: [{ text: 'earlier question' }] } },
      {
        id: 'seed-2',
        invocationId: 'old',
        author: 'weather_agent',
        timestamp: 1_700_000_001,
        content: { role: 'model', parts: [{ text: 'earlier answer' }] },
        partial: null,
      },
    ];
    await drain(app.async_stream_query({ user_id: 'u1', message: 'now', session_events: seed as never }));
    const { sessions } = await app.async_list_sessions({ user_id: 'u1' });
    const stored = await app.async_get_session({ user_id: 'u1', session_id: sessions[0]!.id });
    expect(stored.events.slice(0, 2).map((e) => [e.id, e.invocation_id, e.timestamp, textOf(e)])).toEqual([
      ['seed-1', 'old', 1_700_000_000.25, 'earlier question'],
      ['seed-2', 'old', 1_700_000_001, 'earlier answer'],
    ]);
    expect(stored.events.slice(2).map(textOf)).toEqual(['now', 'You said: now']);
  });

  // googleapis/python-aiplatform, vertexai/agent_engines/templates/adk.py, async_stream_query:
  // `if session_id and session_events: raise ValueError(...)` — an empty list is falsy there.
  it('refuses non-empty session_events together with session_id, before streaming; accepts an empty list', async () => {
    const { app } = makeApp();
    const session = await app.async_create_session({ user_id: 'u1' });
    const seed = [{ author: 'user', timestamp: 1_700_000_000, content: { role: 'user', parts: [{ text: 'old' }] } }];
    await expect(app.async_stream_query({ user_id: 'u1', session_id: session.id, message: 'x', session_events: seed as never })).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
      httpStatus: 400,
      message: expect.stringContaining('session_events'),
    });
    const events = await drain(app.async_stream_query({ user_id: 'u1', session_id: session.id, message: 'hi', session_events: [] }));
    expect(textOf(events[0]!)).toBe('You said: hi');
    expect((await app.async_get_session({ user_id: 'u1', session_id: session.id })).events.map(textOf)).toEqual(['hi', 'You said: hi']);
  });

  // ADK's Runner with `auto_create_session=True` (adk-python runners.py). The reference AdkApp builds
  // its runner without it and raises "Session not found" (python-aiplatform
  // agentplatform/agent_engines/templates/adk.py @490a052): a difference on purpose, docs/agent-app.md.
  it("creates an unknown session_id under that id with the turn, as ADK's auto-creating runner does", async () => {
    const { app } = makeApp();
    const events = await drain(app.async_stream_query({ user_id: 'u1', session_id: 'fresh-1', message: 'x' }));
    expect(textOf(events[0]!)).toBe('You said: x');
    const stored = await app.async_get_session({ user_id: 'u1', session_id: 'fresh-1' });
    expect(stored.events.map(textOf)).toEqual(['x', 'You said: x']);
    // The sync form too (the reference's stream_query runs the same runner).
    await drain(app.stream_query({ user_id: 'u1', session_id: 'fresh-2', message: 'y' }));
    expect((await app.async_get_session({ user_id: 'u1', session_id: 'fresh-2' })).events).toHaveLength(2);
  });

  it('takes labels in run_config verbatim onto the model requests', async () => {
    const { app } = makeApp();
    const events = await drain(app.async_stream_query({ user_id: 'u1', message: 'what labels', run_config: { labels: { cost_center: 'cc-1' } } }));
    expect(JSON.parse(textOf(events[0]!).replace('labels: ', ''))).toMatchObject({ cost_center: 'cc-1' });
  });

  it.each([
    [{ message: 'x' }, 'user_id'],
    [{ user_id: 'u1' }, 'message'],
    [{ user_id: 'u1', message: 42 }, 'message'],
    [{ user_id: 'u1', message: { role: 'user', parts: [] } }, 'no parts'],
    [{ user_id: 'u1', message: { parts: 'text' } }, 'parts'],
    [{ user_id: 'u1', message: 'x', run_config: 'fast' }, 'run_config'],
    [{ user_id: 'u1', message: 'x', session_events: [1] }, 'session_events[0]'],
  ])('refuses bad input %j with INVALID_ARGUMENT naming %s', async (input, word) => {
    const { app } = makeApp();
    await expect(app.async_stream_query(input as never)).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
      message: expect.stringContaining(word),
    });
  });

  it('takes a snake_case run_config', async () => {
    const { app } = makeApp();
    const events = await drain(app.async_stream_query({ user_id: 'u1', message: 'hi', run_config: { streaming_mode: 'none', max_llm_calls: 5 } }));
    expect(textOf(events[0]!)).toBe('You said: hi');
  });

  it('stops the turn when the context signal aborts', async () => {
    const { app, model } = makeApp();
    const controller = new AbortController();
    const stream = await app.async_stream_query({ user_id: 'u1', message: 'count to 50' }, { signal: controller.signal });
    const texts: string[] = [];
    for await (const event of stream) {
      texts.push(textOf(event));
      if (texts.length === 2) controller.abort();
    }
    expect(texts).toEqual(['1', '2']);
    const producedAtEnd = model.produced;
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The model was told to stop: nothing more is produced after the stream ended.
    expect(model.produced).toBe(producedAtEnd);
    expect(model.produced).toBeLessThanOrEqual(3);
  });
});

describe('stream_query (sync form)', () => {
  it('behaves like async_stream_query, tool call arguments included', async () => {
    const { app } = makeApp();
    const events = await drain(app.stream_query({ user_id: 'u1', message: 'weather in Oslo' }));
    expect(callsOf(events)[0]!['function_call'].args).toStrictEqual(weatherArgs('Oslo'));
    expect(textOf(events[2]!)).toContain('"city":"Oslo"');
  });

  it('ignores session_events, which it does not declare', async () => {
    const { app } = makeApp();
    const session = await app.create_session({ user_id: 'u1' });
    const events = await drain(app.stream_query({ user_id: 'u1', session_id: session.id, message: 'hi', session_events: [{}] } as never));
    expect(textOf(events[0]!)).toBe('You said: hi');
  });
});
