/**
 * Issue 33 item 2: the generated `ui.ts` (a spec with `ui: [ai-sdk, ag-ui]`, test/fixtures/ui)
 * exposes each streaming operation whose events are ADK events as the stream a web UI reads,
 * typed by the operation's input, with the handoff's envelopes unwrapped. Through `agentgen dev`
 * in front of the weather example (the deterministic model of test/agent-app/scripted-llm.ts), read
 * back by the AI SDK's own `readUIMessageStream` and AG-UI's own schemas and order check.
 * And a spec that asks for `ui` where it cannot be written is refused at its line.
 */
import { verifyEvents } from '@ag-ui/client';
import type { AGUIEvent } from '@ag-ui/core';
import { EventSchemas } from '@ag-ui/core/schemas';
import { readUIMessageStream, type UIMessage } from 'ai';
import { from, lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpecError } from '../../generator/load/spec-error.js';
import { ScriptedLlm, weatherArgs } from '../agent-app/scripted-llm.js';
import { type AgentClient, createAgentClient } from '../fixtures/ui/expected/client.js';
import { createAgUiEventStreams, createUiMessageStreams } from '../fixtures/ui/expected/ui.js';
import { generateFromText } from '../helpers/generate.js';
import { startWeatherBehindDev, type WeatherBehindDev } from '../helpers/weather-behind-dev.js';

let weather: WeatherBehindDev;
let client: AgentClient;

beforeAll(async () => {
  weather = await startWeatherBehindDev(new ScriptedLlm());
  client = createAgentClient({ baseUrl: weather.baseUrl, resourceName: weather.resource, token: 'local-token' });
});
afterAll(async () => {
  await weather?.close();
});

async function messagesOf(stream: ReadableStream<never> | ReturnType<ReturnType<typeof createUiMessageStreams>['async_stream_query']>): Promise<UIMessage[]> {
  const messages: UIMessage[] = [];
  for await (const message of readUIMessageStream({ stream: stream as Parameters<typeof readUIMessageStream>[0]['stream'] })) messages.push(message);
  return messages;
}

function expectWeatherTurn(messages: UIMessage[]): void {
  expect(new Set(messages.map((message) => message.id)).size).toBe(1);
  const parts = messages.at(-1)!.parts;
  expect(parts.map((part) => part.type)).toEqual(['tool-get_weather', 'text']);
  expect(parts[0]).toMatchObject({ state: 'output-available', input: weatherArgs('Paris') });
  expect(JSON.stringify(parts[1]).split('Result of get_weather').length - 1).toBe(1);
}

describe('ui.ts of a spec with ui: [ai-sdk, ag-ui]', () => {
  it('createUiMessageStreams: async_stream_query as the AI SDK UI message stream, one assistant message', async () => {
    const ui = createUiMessageStreams(client);
    expectWeatherTurn(await messagesOf(ui.async_stream_query({ user_id: 'ada', message: 'What is the weather in Paris?' })));
  });

  it('createUiMessageStreams: streaming_agent_run_with_events unwrapped, the same message', async () => {
    const request_json = JSON.stringify({ message: { role: 'user', parts: [{ text: 'weather in Paris' }] }, userId: 'lin' });
    expectWeatherTurn(await messagesOf(createUiMessageStreams(client).streaming_agent_run_with_events({ request_json })));
  });

  it('createAgUiEventStreams: AG-UI events that pass its schemas and its order check', async () => {
    const events: AGUIEvent[] = [];
    for await (const event of createAgUiEventStreams(client).async_stream_query({ user_id: 'ada', message: 'What is the weather in Paris?' }))
      events.push(event);
    for (const event of events) expect(EventSchemas.safeParse(event).success, JSON.stringify(event)).toBe(true);
    await expect(lastValueFrom(verifyEvents(false)(from(events)).pipe(toArray()))).resolves.toHaveLength(events.length);
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['RUN_STARTED', 'TOOL_CALL_START', 'TOOL_CALL_RESULT', 'RUN_FINISHED']));
  });
});

describe('ui: refused where ui.ts cannot be written', () => {
  const problem = (spec: string): string => {
    try {
      generateFromText(spec);
    } catch (error) {
      if (error instanceof SpecError) return error.message;
      throw error;
    }
    throw new Error('the spec was not refused');
  };

  it('with runtime: bundle, and with no stream of ADK events', () => {
    const base = 'agentgen: 1\nname: t\nsurface: agent-app@2\n';
    expect(problem(`${base}include: [async_stream_query]\nruntime: bundle\nui: [ai-sdk]\n`)).toMatch(/ui: ui needs the runtime package \(runtime: package\)/);
    expect(problem(`${base}include: [async_create_session]\nui: [ag-ui]\n`)).toMatch(/this spec declares none/);
    expect(problem(`${base}ui: [vercel]\n`)).toMatch(/expected one of "ai-sdk", "ag-ui"/);
  });
});
