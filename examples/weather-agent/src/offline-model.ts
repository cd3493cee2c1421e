/**
 * A deterministic stand-in for Gemini, so the example runs with no network and no API key
 * (`AGENT_MODEL=offline`). It is chosen explicitly, never as a fallback: a missing key with
 * a real model name still fails loudly, as it would in production.
 *
 * It plays the same two steps a real model plays with its tools:
 * - a user turn naming a known city → a `get_weather` call with `{ city }`;
 * - the same with the word "save" in it → a call of the save tool (`save_report`) with `{ city }`;
 * - the tool's result as the last content → one sentence that reports it;
 * - a user turn with the word "recap" → the user's earlier messages of the session, quoted in
 *   order: an answer only the conversation's history can give (the replica tests use it to see
 *   that a turn served by another instance saw every turn before it);
 * - a user turn naming no known city → one sentence asking for one.
 */

import type { BaseLlmConnection, LlmRequest, LlmResponse } from '@google/adk';
import { BaseLlm } from '@google/adk';

export interface OfflineModelOptions {
  /** The cities the tool knows, as they should be passed to it (e.g. `New York`). */
  cities: readonly string[];
  /** The tool to call (default `get_weather`). */
  toolName?: string;
  /** The tool that saves a city's report, called when the user says "save" (default `save_report`). */
  saveToolName?: string;
}

export class OfflineModel extends BaseLlm {
  readonly #cities: readonly string[];
  readonly #toolName: string;
  readonly #saveToolName: string;

  constructor(options: OfflineModelOptions) {
    super({ model: 'offline' });
    this.#cities = options.cities;
    this.#toolName = options.toolName ?? 'get_weather';
    this.#saveToolName = options.saveToolName ?? 'save_report';
  }

  override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    const last = request.contents[request.contents.length - 1];
    const result = last?.parts?.find((part) => part.functionResponse)?.functionResponse;
    if (result) {
      yield text(describe(result.response ?? {}));
      return;
    }
    const said = (last?.parts ?? []).map((part) => part.text ?? '').join(' ');
    if (/\brecap\b/i.test(said)) {
      yield text(recap(request.contents.slice(0, -1)));
      return;
    }
    const city = this.#findCity(said);
    if (city) {
      const name = /\bsave\b/i.test(said) ? this.#saveToolName : this.#toolName;
      yield { content: { role: 'model', parts: [{ functionCall: { name, args: { city } } }] } };
    } else {
      yield text(`Which city? I have today's weather for ${listOf(this.#cities)}.`);
    }
  }

  override connect(): Promise<BaseLlmConnection> {
    return Promise.reject(new Error('OfflineModel has no live (bidirectional) mode'));
  }

  /** The known city that appears first in the text (case and spacing ignored), if any. */
  #findCity(said: string): string | undefined {
    let best: { city: string; at: number } | undefined;
    for (const city of this.#cities) {
      const words = city
        .trim()
        .split(/\s+/)
        .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      const at = new RegExp(`\\b${words.join('\\s+')}\\b`, 'i').exec(said)?.index;
      if (at !== undefined && (!best || at < best.at)) best = { city, at };
    }
    return best?.city;
  }
}

/**
 * One sentence from a tool's result: a report `{status, city, sky, temperatureC}`, a saved report
 * `{status, city, filename, version}`, or `{status, error_message}`.
 */
function describe(report: Record<string, unknown>): string {
  if (report['status'] === 'success' && typeof report['filename'] === 'string') {
    return `Saved today's report for ${String(report['city'])} as ${report['filename']} (version ${String(report['version'])}).`;
  }
  if (report['status'] === 'success') {
    return `It is ${String(report['sky'])} and ${String(report['temperatureC'])}°C in ${String(report['city'])}.`;
  }
  return typeof report['error_message'] === 'string' ? report['error_message'] : 'I could not get a weather report.';
}

/** The user's own messages among `contents` (tool results are user turns too, without text), quoted in order. */
function recap(contents: LlmRequest['contents']): string {
  const asked = contents
    .filter((content) => content.role === 'user')
    .map((content) => (content.parts ?? []).map((part) => part.text ?? '').join(''))
    .filter((said) => said !== '');
  return asked.length === 0 ? 'You have asked nothing before.' : `You asked before: ${asked.map((said) => JSON.stringify(said)).join(', ')}.`;
}

function listOf(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function text(value: string): LlmResponse {
  return { content: { role: 'model', parts: [{ text: value }] } };
}
