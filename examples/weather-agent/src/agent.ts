/**
 * The example's ADK agent: one LLM agent with one tool. Nothing here knows about the
 * runtime or agentgen; `main.ts` wraps it in an AgentApp and serves it.
 */
import { FunctionTool, LlmAgent, type BaseLlm } from '@google/adk';
import { z } from 'zod';
import { OfflineModel } from './offline-model.js';

/** Today's reports for a few cities: a stand-in for a real weather API the tool would call. */
const reports: Readonly<Record<string, { sky: string; temperatureC: number }>> = {
  amsterdam: { sky: 'light rain', temperatureC: 11 },
  new_york: { sky: 'sunny', temperatureC: 25 },
  paris: { sky: 'clear', temperatureC: 18 },
  tokyo: { sky: 'cloudy', temperatureC: 21 },
};

/** The cities `get_weather` knows, spelled as a caller would pass them (`New York`). */
export const knownCities: readonly string[] = Object.keys(reports).map((key) =>
  key
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' '),
);

export function weatherReport(city: string): Record<string, unknown> {
  const report = reports[city.trim().toLowerCase().replace(/\s+/g, '_')];
  if (!report) return { status: 'error', error_message: `No weather report for ${city}.` };
  return { status: 'success', city, ...report };
}

export const getWeather = new FunctionTool({
  name: 'get_weather',
  description: "Returns today's weather report for a city.",
  parameters: z.object({ city: z.string().describe('The city, e.g. "Paris".') }),
  execute: ({ city }) => weatherReport(city),
});

export interface WeatherAgentOptions {
  /**
   * A model name (default `$AGENT_MODEL`, else `gemini-2.5-flash`) or a `BaseLlm` instance.
   * `offline` picks `OfflineModel`: deterministic, no network, no API key. It is never
   * picked implicitly, so a missing key with a real model still fails loudly.
   */
  model?: string | BaseLlm;
}

function resolveModel(model: string | BaseLlm): string | BaseLlm {
  return model === 'offline' ? new OfflineModel({ cities: knownCities, toolName: getWeather.name }) : model;
}

export function createWeatherAgent(options: WeatherAgentOptions = {}): LlmAgent {
  return new LlmAgent({
    name: 'weather_agent',
    description: 'Answers questions about the weather in a city.',
    instruction: 'You answer questions about the weather. Call get_weather for the city asked about, then answer in one sentence.',
    model: resolveModel(options.model ?? (process.env['AGENT_MODEL'] || 'gemini-2.5-flash')),
    tools: [getWeather],
  });
}
