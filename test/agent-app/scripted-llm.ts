/**
 * A deterministic model for driving a real ADK `Runner` without a network. It answers from
 * rules over the request, never from randomness or call order, so concurrent turns and
 * repeated runs see the same answers:
 *
 * - after a tool result: one text that reports it (`Result of <tool>: <json>`);
 * - "weather in <City>": a call of `get_weather` with fixed, nested, camelCase arguments;
 * - "who am i": a call of `whoami` (reads the forwarded token from the turn's state);
 * - "what labels": the labels of the model request (`config.labels`), as JSON;
 * - "save <text>": a call of `save_note` (writes an artifact);
 * - "count to <n>": n texts, one every `delayMs`, stopping early when the run is aborted;
 * - "fail after one": one text, then the model call fails (a provider error mid-turn);
 * - "how many messages": the number of user texts the model was given (shows what history it saw);
 * - "stream <text>": asked to stream, the text word by word as partial responses, then the whole
 *   text as the final one (as ADK's Gemini model aggregates in SSE mode); not asked, the whole
 *   text once (google/adk-go PR #777's stream-aware test model does the same);
 * - "chunks <text>": the same partial chunks and final text whether asked to stream or not, as a
 *   model that ignores the flag;
 * - anything else: `You said: <text>`.
 */

import type { BaseLlmConnection, LlmRequest, LlmResponse } from '@google/adk';
import { BaseLlm } from '@google/adk';

export const weatherArgs = (city: string) => ({
  city,
  forecastDays: 2,
  options: { unitSystem: 'metric', include: ['wind', 'rain'], snake_key: true },
});

export class ScriptedLlm extends BaseLlm {
  /** Responses produced so far, across all turns (the abort test watches it stop growing). */
  produced = 0;
  /** Whether each call was asked to stream, in call order. */
  readonly streamRequests: boolean[] = [];

  readonly #delayMs: number;
  constructor(delayMs = 20) {
    super({ model: 'scripted' });
    this.#delayMs = delayMs;
  }

  override async *generateContentAsync(request: LlmRequest, stream = false, abortSignal?: AbortSignal): AsyncGenerator<LlmResponse, void> {
    this.streamRequests.push(stream);
    const last = request.contents[request.contents.length - 1];
    const toolResult = last?.parts?.find((part) => part.functionResponse)?.functionResponse;
    if (toolResult) {
      yield this.#text(`Result of ${toolResult.name}: ${JSON.stringify(toolResult.response)}`);
      return;
    }
    const said = (last?.parts ?? []).map((part) => part.text ?? '').join(' ');
    const weather = /weather in (\w+)/i.exec(said);
    const count = /count to (\d+)/i.exec(said);
    const save = /^save (.+)$/i.exec(said);
    const streamed = /^(stream|chunks) (.+)$/i.exec(said);
    if (weather) {
      yield this.#call('get_weather', weatherArgs(weather[1]!));
    } else if (/who am i/i.test(said)) {
      yield this.#call('whoami', {});
    } else if (save) {
      yield this.#call('save_note', { text: save[1]! });
    } else if (/what labels/i.test(said)) {
      yield this.#text(`labels: ${JSON.stringify(request.config?.labels ?? {})}`);
    } else if (/how many messages/i.test(said)) {
      const userTexts = request.contents.filter((c) => c.role === 'user' && c.parts?.some((p) => p.text !== undefined));
      yield this.#text(`I have seen ${userTexts.length} user messages`);
    } else if (/fail after one/i.test(said)) {
      yield this.#text('partial answer');
      throw new Error('model provider unavailable');
    } else if (streamed) {
      const whole = streamed[2]!;
      if (stream || streamed[1]!.toLowerCase() === 'chunks') {
        for (const word of whole.split(/(?<= )/)) yield { ...this.#text(word), partial: true };
      }
      yield this.#text(whole);
    } else if (count) {
      for (let i = 1; i <= Number(count[1]); i++) {
        if (abortSignal?.aborted) return;
        await new Promise((resolve) => setTimeout(resolve, this.#delayMs));
        if (abortSignal?.aborted) return;
        yield this.#text(String(i));
      }
    } else {
      yield this.#text(`You said: ${said}`);
    }
  }

  override connect(_request: LlmRequest): Promise<BaseLlmConnection> {
    return Promise.reject(new Error('ScriptedLlm has no live mode'));
  }

  #text(text: string): LlmResponse {
    this.produced++;
    return { content: { role: 'model', parts: [{ text }] } };
  }

  #call(name: string, args: Record<string, unknown>): LlmResponse {
    this.produced++;
    return { content: { role: 'model', parts: [{ functionCall: { name, args } }] } };
  }
}
