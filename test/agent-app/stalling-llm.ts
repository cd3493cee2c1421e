/**
 * A model whose turn never finishes on its own, for the SIGTERM test (shutdown.test.ts): each call
 * answers one whole text at once (`working on: <message>`, an event ADK stores and streams), then
 * waits until the run's abort signal fires, as a provider call that is still thinking. What it
 * does then depends on the message, the two ways a real call ends when it is cancelled:
 *
 * - `... fail ...`: the call rejects with the signal's reason, as Gemini's client does (ADK's
 *   Gemini model hands the signal to @google/genai, whose fetch rejects on abort); ADK turns a
 *   model error into an error event, which must not reach the session;
 * - anything else: the rest of the answer arrives anyway (`the late answer`), as a reply already
 *   on the wire when the cancel fires; ADK must drop it and stop pulling.
 *
 * Every step is appended to `log` as a JSON line, synchronously, so the record survives the
 * process's exit right after the shutdown and the test reads it afterwards.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import type { BaseLlmConnection, LlmRequest, LlmResponse } from '@google/adk';
import { BaseLlm, LlmAgent } from '@google/adk';

export const lateAnswer = 'the late answer';

/** One line of the log: what the call for `said` did, and when (`Date.now()`: the test compares it with its own clock). */
export interface StallRecord {
  readonly said: string;
  readonly step: 'started' | 'no signal' | 'aborted' | 'pulled after abort' | 'closed';
  readonly ms: number;
  readonly reason?: string;
}

export class StallingLlm extends BaseLlm {
  readonly #log: string;
  constructor(log: string) {
    super({ model: 'stalling' });
    this.#log = log;
  }

  override async *generateContentAsync(request: LlmRequest, _stream = false, abortSignal?: AbortSignal): AsyncGenerator<LlmResponse, void> {
    const last = request.contents[request.contents.length - 1];
    const said = (last?.parts ?? []).map((part) => part.text ?? '').join(' ');
    this.#note({ said, step: 'started' });
    try {
      yield text(`working on: ${said}`);
      if (abortSignal === undefined) {
        // Nothing could ever cancel this call: say so, and wait as the provider would.
        this.#note({ said, step: 'no signal' });
        await new Promise<never>(() => undefined);
        return;
      }
      await new Promise<void>((resolve) => (abortSignal.aborted ? resolve() : abortSignal.addEventListener('abort', () => resolve(), { once: true })));
      this.#note({ said, step: 'aborted', reason: String((abortSignal.reason as Error | undefined)?.message ?? abortSignal.reason) });
      if (/\bfail\b/.test(said)) throw abortSignal.reason ?? new DOMException('This operation was aborted', 'AbortError');
      yield text(lateAnswer);
      // Reached only if ADK asked for more after the cancel.
      this.#note({ said, step: 'pulled after abort' });
    } finally {
      this.#note({ said, step: 'closed' });
    }
  }

  override connect(_request: LlmRequest): Promise<BaseLlmConnection> {
    return Promise.reject(new Error('StallingLlm has no live mode'));
  }

  #note(record: Omit<StallRecord, 'ms'>): void {
    appendFileSync(this.#log, `${JSON.stringify({ ...record, ms: Date.now() })}\n`);
  }
}

function text(value: string): LlmResponse {
  return { content: { role: 'model', parts: [{ text: value }] } };
}

/** The agent of the SIGTERM tests: an `LlmAgent` on the stalling model, logging to `log`. */
export function stallingAgent(log: string): LlmAgent {
  return new LlmAgent({ name: 'stalling_agent', description: 'Never done.', instruction: 'Take your time.', model: new StallingLlm(log) });
}

/** The log as records, in the order written. */
export function readStallLog(log: string): StallRecord[] {
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as StallRecord);
}
