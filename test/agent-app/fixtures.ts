/**
 * A small real ADK agent for the tests: an `LlmAgent` on the scripted model with three
 * tools, and helpers to build an AgentApp around it and drain its streams.
 */

import { AgentApp, type AgentAppOptions } from '@agentgen/agent-app';
import { FunctionTool, LlmAgent } from '@google/adk';
import { z } from 'zod';
import { ScriptedLlm } from './scripted-llm.js';

export function makeAgent(model = new ScriptedLlm()) {
  const getWeather = new FunctionTool({
    name: 'get_weather',
    description: 'Forecast for a city.',
    parameters: z.object({
      city: z.string(),
      forecastDays: z.number(),
      options: z.object({ unitSystem: z.string(), include: z.array(z.string()), snake_key: z.boolean() }),
    }),
    execute: ({ city, forecastDays }) => ({ city, sky: 'clear', forecastDays }),
  });
  // Reports whether a forwarded token is visible, never the token itself: under `temp:github`
  // (agentgen's spelling) and under `github` (as tools written for the reference AdkApp read it).
  const whoami = new FunctionTool({
    name: 'whoami',
    description: 'Tells whether the caller forwarded a GitHub token.',
    execute: (_args, context) => {
      const token = context?.state.get<string>('temp:github');
      const plain = context?.state.get<string>('github');
      return { authorized: typeof token === 'string', tokenLength: token?.length ?? 0, plainKey: typeof plain === 'string' && plain === token };
    },
  });
  const saveNote = new FunctionTool({
    name: 'save_note',
    description: 'Saves a note as an artifact.',
    parameters: z.object({ text: z.string() }),
    execute: async ({ text }, context) => ({ version: await context!.saveArtifact('note.txt', { text }) }),
  });
  const agent = new LlmAgent({
    name: 'weather_agent',
    description: 'Answers weather questions.',
    instruction: 'Answer briefly.',
    model,
    tools: [getWeather, whoami, saveNote],
  });
  return { agent, model };
}

export function makeApp(options: Partial<AgentAppOptions> = {}) {
  const { agent, model } = makeAgent();
  const app = new AgentApp({ agent, env: {}, ...options });
  return { app, model, agent };
}

export async function drain<T>(stream: AsyncIterable<T> | Promise<AsyncIterable<T>>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of await stream) out.push(item);
  return out;
}

/** All text of an event's parts, or ''. */
export function textOf(event: { content?: Record<string, unknown> }): string {
  const parts = (event.content?.['parts'] ?? []) as Array<Record<string, unknown>>;
  return parts.map((part) => (typeof part['text'] === 'string' ? part['text'] : '')).join('');
}
