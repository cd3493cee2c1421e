/**
 * Issue 5 "Done when": a whole conversation with the example agent, on loopback, through
 * `agentgen dev` (the emulator of the public API) and the example's generated client:
 * create a session, stream a turn with a tool call, read the session back, list, add to
 * memory, search memory, delete, and a handoff in each of its three session cases.
 *
 * The container is the example's own pieces — its ADK agent, AgentApp, its generated
 * server — with the deterministic model in place of Gemini (no network here).
 */

import type { AgentApp } from '@agentgen/agent-app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentClient, createAgentClient } from '../../examples/weather-agent/generated/client.js';
import { startWeatherBehindDev, type WeatherBehindDev } from '../helpers/weather-behind-dev.js';
import { ScriptedLlm } from './scripted-llm.js';

const resource = 'projects/demo/locations/us-central1/reasoningEngines/4242';

let weather: WeatherBehindDev;
let app: AgentApp;
let client: AgentClient;

beforeAll(async () => {
  weather = await startWeatherBehindDev(new ScriptedLlm(), resource);
  app = weather.app;
  client = createAgentClient({ baseUrl: weather.baseUrl, resourceName: resource, token: 'local-token' });
});

afterAll(async () => {
  await weather?.close();
});

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

const notFound = { status: 'FAILED_PRECONDITION', message: expect.stringContaining('"status":"NOT_FOUND"') };
const text = (event: { content?: { parts?: Array<{ text?: string }> } }) => (event.content?.parts ?? []).map((p) => p.text ?? '').join('');

describe('the weather-agent example through agentgen dev and its generated client', () => {
  it('declares the twenty operations of agent-app@2', async () => {
    const resourceInfo = await client.getResource();
    expect(resourceInfo.spec?.classMethods?.map((m) => m.name)).toHaveLength(20);
  });

  it('walks a whole conversation', async () => {
    const session = await client.async_create_session({ user_id: 'ada' });
    expect(session).toMatchObject({ user_id: 'ada', app_name: 'default-app-name', events: [] });

    const events = await collect(client.async_stream_query({ user_id: 'ada', session_id: session.id, message: 'What is the weather in Paris?' }));
    expect(events).toHaveLength(3);
    const call = events[0]!.content!.parts![0]!.function_call!;
    expect(call.name).toBe('get_weather');
    expect(call.args).toMatchObject({ city: 'Paris' });
    expect(events[1]!.content!.parts![0]!.function_response).toMatchObject({
      name: 'get_weather',
      response: { status: 'success', city: 'Paris', sky: 'clear', temperatureC: 18 },
    });
    expect(text(events[2]!)).toContain('"sky":"clear"');

    const stored = await client.async_get_session({ user_id: 'ada', session_id: session.id });
    expect(stored.events.map((e) => e.id)).toEqual([expect.any(String), ...events.map((e) => e.id)]);
    expect(text(stored.events[0]!)).toBe('What is the weather in Paris?');

    const { sessions } = await client.async_list_sessions({ user_id: 'ada' });
    expect(sessions.map((s) => s.id)).toContain(session.id);

    expect(await client.async_add_session_to_memory({ session: stored })).toBeNull();
    const { memories } = await client.async_search_memory({ user_id: 'ada', query: 'paris' });
    expect(memories.map(text)).toContain('What is the weather in Paris?');
    expect((await client.async_search_memory({ user_id: 'grace', query: 'paris' })).memories).toEqual([]);

    expect(await client.async_delete_session({ user_id: 'ada', session_id: session.id })).toBeNull();
    // The runtime reports a container error as FAILED_PRECONDITION carrying the container's answer.
    await expect(client.async_get_session({ user_id: 'ada', session_id: session.id })).rejects.toMatchObject(notFound);
  });

  // Handoffs as the reference AdkApp runs them (googleapis/python-aiplatform,
  // vertexai/agent_engines/templates/adk.py, streaming_agent_run_with_events).
  it('hands off a turn to an existing session: resumed with its history, readable with async_get_session', async () => {
    const { id } = await client.async_create_session({ user_id: 'ada' });
    const first = JSON.stringify({ message: { role: 'user', parts: [{ text: 'hello there' }] }, userId: 'ada', sessionId: id });
    expect((await collect(client.streaming_agent_run_with_events({ request_json: first }))).map((e) => e.session_id)).toEqual([id]);
    const second = JSON.stringify({ message: { role: 'user', parts: [{ text: 'how many messages' }] }, userId: 'ada', sessionId: id });
    const envelopes = await collect(client.streaming_agent_run_with_events({ request_json: second }));
    expect(envelopes.map((e) => [e.session_id, text(e.events[0]!)])).toEqual([[id, 'I have seen 2 user messages']]);
    expect((await client.async_get_session({ user_id: 'ada', session_id: id })).events).toHaveLength(4);
  });

  it('hands off a turn to an unknown session id: a new session with a new id, seeded, tokens for the turn only', async () => {
    const request_json = JSON.stringify({
      message: { role: 'user', parts: [{ text: 'how many messages' }] },
      userId: 'ada',
      sessionId: 'chat-7',
      events: [{ author: 'user', timestamp: 1_700_000_000, content: { role: 'user', parts: [{ text: 'I am flying to Japan' }] } }],
      authorizations: { calendar: { access_token: 'tok-calendar-123' } },
    });
    const envelopes = await collect(client.streaming_agent_run_with_events({ request_json }));
    const newId = envelopes[0]!.session_id;
    expect(newId).not.toBe('chat-7');
    // The seeded event is part of the history the model saw.
    expect(envelopes.map((e) => [e.session_id, text(e.events[0]!)])).toEqual([[newId, 'I have seen 2 user messages']]);
    const session = await client.async_get_session({ user_id: 'ada', session_id: newId });
    expect(session.events.map((e) => e.author)).toEqual(['user', 'user', 'weather_agent']);
    expect(JSON.stringify(session)).not.toContain('tok-calendar-123');
  });

  it('hands off a turn without a session id: a temporary session, gone afterwards', async () => {
    const request_json = JSON.stringify({ message: { role: 'user', parts: [{ text: 'weather in Tokyo' }] }, userId: 'lin' });
    const envelopes = await collect(client.streaming_agent_run_with_events({ request_json }));
    expect(envelopes).toHaveLength(3);
    expect(envelopes[0]!.events[0]!.content!.parts![0]!.function_call).toMatchObject({ name: 'get_weather', args: { city: 'Tokyo' } });
    expect(new Set(envelopes.map((e) => e.session_id)).size).toBe(1);
    const left = await app.temporaryServices.sessionService.listSessions({ appName: app.appName, userId: 'lin' });
    expect(left.sessions).toEqual([]);
    expect((await client.async_list_sessions({ user_id: 'lin' })).sessions).toEqual([]);
  });
});
