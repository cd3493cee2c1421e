/**
 * The example's ADK agent: one LLM agent with two tools, one that reads a weather report and
 * one that saves it as an artifact. Nothing here knows about the runtime or agentgen; `main.ts`
 * wraps it in an AgentApp and serves it.
 */
import { type BaseLlm, FunctionTool, LlmAgent } from '@google/adk';
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

/** Where `save_report` keeps a city's report: one artifact per city, a new version each save. */
export function reportFilename(city: string): string {
  return `report-${city.trim().toLowerCase().replace(/\s+/g, '-')}.txt`;
}

/**
 * Writes today's report for a city as an artifact of the session (through the app's artifact
 * service), so a caller can fetch it afterwards with `async_load_artifact`.
 */
export const saveReport = new FunctionTool({
  name: 'save_report',
  description: "Saves today's weather report for a city as a text file the user can download later.",
  parameters: z.object({ city: z.string().describe('The city, e.g. "Paris".') }),
  execute: async ({ city }, context) => {
    const report = weatherReport(city);
    if (report['status'] !== 'success') return report;
    if (!context) return { status: 'error', error_message: 'No session to save the report in.' };
    const filename = reportFilename(city);
    const text = `Weather in ${city}: ${String(report['sky'])}, ${String(report['temperatureC'])}°C.`;
    const version = await context.saveArtifact(filename, { text });
    return { status: 'success', city, filename, version };
  },
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
  return model === 'offline' ? new OfflineModel({ cities: knownCities, toolName: getWeather.name, saveToolName: saveReport.name }) : model;
}

export function createWeatherAgent(options: WeatherAgentOptions = {}): LlmAgent {
  return new LlmAgent({
    name: 'weather_agent',
    description: 'Answers questions about the weather in a city.',
    instruction:
      'You answer questions about the weather. Call get_weather for the city asked about, then answer in one sentence. ' +
      'When asked to save a report, call save_report for the city and say which file it was saved as.',
    model: resolveModel(options.model ?? (process.env['AGENT_MODEL'] || 'gemini-2.5-flash')),
    tools: [getWeather, saveReport],
  });
}
