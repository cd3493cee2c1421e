/**
 * The weather-agent example's offline model (`AGENT_MODEL=offline`), the one the top-level
 * README walk-through runs: the example's own agent and tool, a real ADK Runner inside
 * AgentApp, `async_stream_query` drained to its wire events. No network, no API key.
 */

import { AgentApp, type WireEvent } from '@agentgen/agent-app';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWeatherAgent } from '../../examples/weather-agent/src/agent.js';
import { OfflineModel } from '../../examples/weather-agent/src/offline-model.js';
import { drain, textOf } from './fixtures.js';

const partsOf = (event: WireEvent) => (event.content?.['parts'] ?? []) as Array<Record<string, any>>;

function offlineApp(model: 'offline' | undefined = 'offline') {
  return new AgentApp({ agent: createWeatherAgent(model ? { model } : {}), env: {} });
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the weather-agent offline model through AgentApp.async_stream_query', () => {
  it('calls get_weather with exactly {city: "Paris"}, streams its report, then answers from it', async () => {
    const events = await drain(offlineApp().async_stream_query({ user_id: 'u1', message: 'Weather in Paris?' }));

    expect(events).toHaveLength(3);
    const [call, result, answer] = events as [WireEvent, WireEvent, WireEvent];
    const functionCall = partsOf(call)[0]!['function_call'];
    expect(functionCall.name).toBe('get_weather');
    expect(functionCall.args).toStrictEqual({ city: 'Paris' });
    expect(partsOf(result)[0]!['function_response']).toStrictEqual({
      id: functionCall.id,
      name: 'get_weather',
      response: { status: 'success', city: 'Paris', sky: 'clear', temperatureC: 18 },
    });
    expect(textOf(answer)).toBe('It is clear and 18°C in Paris.');
    expect(events.map((event) => event.author)).toEqual(['weather_agent', 'weather_agent', 'weather_agent']);
  });

  it('is picked by AGENT_MODEL=offline and matches a city regardless of case and spacing', async () => {
    vi.stubEnv('AGENT_MODEL', 'offline');
    const events = await drain(offlineApp(undefined).async_stream_query({ user_id: 'u1', message: 'and in NEW   york today?' }));

    expect(partsOf(events[0]!)[0]!['function_call'].args).toStrictEqual({ city: 'New York' });
    expect(textOf(events[2]!)).toBe('It is sunny and 25°C in New York.');
  });

  it('asks for a city, without calling the tool, when the message names none it knows', async () => {
    const events = await drain(offlineApp().async_stream_query({ user_id: 'u1', message: 'Weather in Berlin?' }));

    expect(events).toHaveLength(1);
    expect(partsOf(events[0]!).some((part) => part['function_call'])).toBe(false);
    expect(textOf(events[0]!)).toBe("Which city? I have today's weather for Amsterdam, New York, Paris and Tokyo.");
  });

  it('is never a silent fallback: without AGENT_MODEL the agent keeps its Gemini model name', () => {
    vi.stubEnv('AGENT_MODEL', undefined);
    expect(createWeatherAgent().model).toBe('gemini-2.5-flash');
    vi.stubEnv('AGENT_MODEL', 'offline');
    expect(createWeatherAgent().model).toBeInstanceOf(OfflineModel);
  });
});
