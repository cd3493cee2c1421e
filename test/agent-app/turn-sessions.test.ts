/**
 * Issue 48, item 1: a turn's events are stored behind it (agent-app/src/turn-sessions.ts). The
 * caller gets each event without waiting for its append; the appends go in order, one at a time;
 * the stream ends only once every event of the turn is stored; a failed append ends the stream
 * with an error line and nothing after it is stored. Real ADK runner, real in-memory service (its
 * appendEvent held or failed by the test), the generated server for the error line.
 */
import { type AppendEventRequest, type Event, InMemorySessionService } from '@google/adk';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentServer, createAgentServer } from '../../generated/server.js';
import { drain, makeApp, textOf } from './fixtures.js';

/** An in-memory session service whose appendEvent waits for the test to release each call. */
function heldAppends() {
  const service = new InMemorySessionService();
  const append = service.appendEvent.bind(service);
  const held: Array<{ event: Event; release: () => void }> = [];
  let inFlight = 0;
  let mostInFlight = 0;
  service.appendEvent = async (request: AppendEventRequest) => {
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    await new Promise<void>((release) => held.push({ event: request.event, release }));
    inFlight--;
    return append(request);
  };
  return { service, held, mostInFlight: () => mostInFlight };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('a turn stores its events behind it (issue 48)', () => {
  it('yields each event without waiting for its append, writes them in order one at a time, and ends only once all are stored', async () => {
    const { service, held, mostInFlight } = heldAppends();
    const { app } = makeApp({ sessionService: service });
    const { id } = await service.createSession({ appName: app.appName, userId: 'u1' });
    const turn = (await app.async_stream_query({ user_id: 'u1', session_id: id, message: 'weather in Rome' }))[Symbol.asyncIterator]();

    const stored = async () => (await service.getSession({ appName: app.appName, userId: 'u1', sessionId: id }))?.events.length;
    // The model is called and its first event reaches the caller before the user's message is stored.
    const first = await turn.next();
    expect(first.value?.content?.parts?.[0]?.function_call?.name).toBe('get_weather');
    expect(await stored()).toBe(0);
    await tick();
    // One write at a time: the user's message first, the rest waiting behind it.
    expect(held.map(({ event }) => event.author)).toEqual(['user']);
    const events = [first.value!, (await turn.next()).value!, (await turn.next()).value!];
    expect(events.map((event) => event.author)).toEqual(['weather_agent', 'weather_agent', 'weather_agent']);

    // Every event is out, none stored yet beyond the held one: the stream does not end.
    let ended = false;
    const end = turn.next().then((result) => ((ended = true), result));
    await tick();
    expect(ended).toBe(false);
    const written: string[] = [];
    while (!ended) {
      const next = held.shift();
      if (next) {
        written.push(next.event.author ?? '');
        next.release();
      }
      await tick();
    }
    expect((await end).done).toBe(true);
    expect(written).toEqual(['user', 'weather_agent', 'weather_agent', 'weather_agent']);
    expect(mostInFlight()).toBe(1);
    const session = await service.getSession({ appName: app.appName, userId: 'u1', sessionId: id });
    expect(session?.events.map((event) => event.id)).toEqual([expect.any(String), ...events.map((event) => event.id)]);
    expect(session?.events[0]?.content?.parts?.[0]?.text).toBe('weather in Rome');
  });

  it('later turns see what earlier ones stored, state deltas included (each turn reads its session once, fresh)', async () => {
    const { app } = makeApp();
    const { id } = await app.async_create_session({ user_id: 'u1' });
    for (const message of ['one', 'two', 'how many messages']) await drain(app.async_stream_query({ user_id: 'u1', session_id: id, message }));
    const stored = await app.async_get_session({ user_id: 'u1', session_id: id });
    expect(stored.events.map(textOf)).toEqual(['one', 'You said: one', 'two', 'You said: two', 'how many messages', expect.stringContaining('3')]);
  });
});

describe('a failed append', () => {
  const servers: AgentServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('ends the stream with an error line, and nothing of the turn after it is stored', async () => {
    const service = new InMemorySessionService();
    const append = service.appendEvent.bind(service);
    let appends = 0;
    service.appendEvent = async (request) => {
      // The third event of the turn (the tool's answer) cannot be stored; the model's tool call before it is.
      if (++appends === 3) throw Object.assign(new Error('the session store is unavailable'), { code: 503 });
      return append(request);
    };
    const { app } = makeApp({ sessionService: service });
    const { id } = await service.createSession({ appName: app.appName, userId: 'u1' });
    const server = createAgentServer(app, { port: 0, host: '127.0.0.1', logger: false });
    servers.push(server);
    const { port } = await server.listen();
    const response = await fetch(`http://127.0.0.1:${port}/api/stream_reasoning_engine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ class_method: 'async_stream_query', input: { user_id: 'u1', session_id: id, message: 'weather in Rome' } }),
    });
    expect(response.status).toBe(200);
    const lines = (await response.text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, any>);
    expect(lines.at(-1)).toMatchObject({ error: { code: 500, status: 'INTERNAL' } });
    expect(lines[0]?.['content']?.parts?.[0]?.function_call?.name).toBe('get_weather');
    expect(lines.slice(0, -1).every((line) => line['error'] === undefined)).toBe(true);
    const session = await service.getSession({ appName: app.appName, userId: 'u1', sessionId: id });
    // The user's message and the tool call, then nothing: never an event after the one that failed.
    expect(session?.events.map((event) => event.content?.parts?.[0]?.text ?? event.content?.parts?.[0]?.functionCall?.name)).toEqual([
      'weather in Rome',
      'get_weather',
    ]);
  });
});
