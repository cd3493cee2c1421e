// The agent the AgentApp benchmarks share (bench/agent-app.mjs, bench/turn-cost.mjs): one tool and
// a scripted `BaseLlm` (no network), so a turn is always the same three events (model call → tool
// → model answer) and the figures are AgentApp + ADK + sessions, never model latency. The script
// reads only the last content, so a turn on a session with history is the same turn as the first.
// `delayMs` (0 unless a benchmark sets it) stands for a real model's time, which is what writes
// stored behind a turn overlap (bench/turn-cost.mjs, time to the first event); `calls`, when a
// benchmark sets it to an array, gets each call's start and answer (performance.now()), so it can
// tell the model's time from the time a turn waited for anything else.
import { BaseLlm, FunctionTool, LlmAgent } from '@google/adk';
import { z } from 'zod';

/** How many events one turn produces (the user's message is stored as a fourth). */
export const eventsPerTurn = 3;

export class Scripted extends BaseLlm {
  /** How long each model call takes before it answers. */
  delayMs = 0;
  /** Where each call's `{ start, end }` goes, while a benchmark records them (else null: nothing kept). */
  calls = null;
  constructor() {
    super({ model: 'scripted' });
  }
  async *generateContentAsync(request) {
    const start = performance.now();
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const last = request.contents.at(-1);
    const result = last?.parts?.find((p) => p.functionResponse)?.functionResponse;
    this.calls?.push({ start, end: performance.now() });
    if (result) yield { content: { role: 'model', parts: [{ text: `It is ${result.response.sky} in ${result.response.city}.` }] } };
    else yield { content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris', options: { unitSystem: 'metric' } } } }] } };
  }
  connect() {
    throw new Error('no live mode');
  }
}

export function weatherAgent(model = new Scripted()) {
  const tool = new FunctionTool({
    name: 'get_weather',
    description: 'Weather for a city.',
    parameters: z.object({ city: z.string(), options: z.object({ unitSystem: z.string() }) }),
    execute: ({ city }) => ({ city, sky: 'clear' }),
  });
  return new LlmAgent({ name: 'weather_agent', instruction: 'Answer.', model, tools: [tool] });
}
