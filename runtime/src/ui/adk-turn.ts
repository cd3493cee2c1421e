/**
 * One agent turn, read from its ADK events (wire form: snake_case, as `:streamQuery` streams them)
 * into the steps every UI stream protocol is made of: text opened, extended and closed, a tool
 * call with its exact arguments, its result, an error, and why the turn finished. Both adapters
 * (`ai-sdk.ts`, `ag-ui.ts`) are a mapping of these steps, so the rules live here once:
 *
 * - Partial events (`partial: true`) carry new text only: each becomes a delta. The event that
 *   closes them (not partial) repeats the whole text, as ADK aggregates it: only what the deltas
 *   did not already say (normally nothing) is added, so no text is shown twice. When it says
 *   something else (the model's final text revised what streamed), the final text wins: neither
 *   protocol can take back a delta, so the streamed part is closed marked `replacedBy` the part
 *   that carries the final text in full (a UI hides the replaced one; dropping the final text
 *   would leave the user reading what the agent did not say in the end).
 * - A complete event followed by partials of the same text (an echo, as some runners stream after
 *   the aggregate) shows the text once: the partials are dropped while they repeat it.
 * - Parts marked `thought: true` are the model's reasoning, on their own channel.
 * - Tool calls and results are read from complete events only (a partial function call may be
 *   incomplete). A call without an `id` gets one; a result without one is matched to the oldest
 *   open call of its name, as ADK matches them.
 * - An event with `error_code` or `error_message` is an error step.
 *
 * No imports of any UI library here, and none of `node:`: it runs in browsers.
 */
import type { Event, Part } from '../contract-schemas/types.js';

export type TextChannel = 'text' | 'reasoning';

export type TurnStep =
  | { readonly kind: 'text-start'; readonly channel: TextChannel; readonly id: string }
  | { readonly kind: 'text-delta'; readonly channel: TextChannel; readonly id: string; readonly delta: string }
  | { readonly kind: 'text-end'; readonly channel: TextChannel; readonly id: string; readonly replacedBy?: string }
  | { readonly kind: 'tool-call'; readonly id: string; readonly name: string; readonly args: Record<string, unknown> }
  | { readonly kind: 'tool-result'; readonly id: string; readonly name: string; readonly response: unknown }
  | { readonly kind: 'error'; readonly code: string | undefined; readonly message: string };

/** ADK's (Gemini's) finish reasons, as the UI protocols name them. */
export type TurnFinishReason = 'stop' | 'length' | 'content-filter' | 'error' | 'other';

const finishReasons: Readonly<Record<string, TurnFinishReason>> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content-filter',
  RECITATION: 'content-filter',
  BLOCKLIST: 'content-filter',
  PROHIBITED_CONTENT: 'content-filter',
  SPII: 'content-filter',
};

interface OpenText {
  readonly id: string;
  /** Everything the deltas said so far, to drop it from the complete event that follows. */
  streamed: string;
}

/** The text of a complete event that no partial opened, while partials may still echo it. */
interface SaidText {
  readonly text: string;
  readonly author: unknown;
  /** How much of `text` the partials after it have repeated so far. */
  echoed: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads one turn, an event at a time; `read` and `end` return the steps each produces. */
export class TurnReader {
  readonly #newId: (kind: 'text' | 'reasoning' | 'tool') => string;
  readonly #open: { text: OpenText | undefined; reasoning: OpenText | undefined } = { text: undefined, reasoning: undefined };
  /** Calls without a result yet, oldest first: how a result without an id finds its call. */
  readonly #pendingCalls: Array<{ id: string; name: string }> = [];
  readonly #said: { text: SaidText | undefined; reasoning: SaidText | undefined } = { text: undefined, reasoning: undefined };
  #author: unknown;
  #count = 0;
  #sawError = false;
  #lastFinish: string | undefined;

  constructor(newId: (kind: 'text' | 'reasoning' | 'tool') => string) {
    this.#newId = newId;
  }

  read(event: unknown): TurnStep[] {
    const index = this.#count++;
    if (!isRecord(event)) {
      throw new TypeError(
        `agentgen: stream event ${index} is not an ADK event object (got ${event === null ? 'null' : Array.isArray(event) ? 'an array' : typeof event})`,
      );
    }
    const adk = event as Event;
    const steps: TurnStep[] = [];
    const partial = adk.partial === true;
    this.#author = adk.author;
    const parts = isRecord(adk.content) && Array.isArray(adk.content.parts) ? adk.content.parts : [];
    for (const part of parts) if (isRecord(part)) this.#readPart(part, partial, steps);
    if (!partial) {
      // A complete event closes what its partials opened, even when it carries no text itself.
      this.#close('reasoning', steps);
      this.#close('text', steps);
    }
    if (typeof adk.finish_reason === 'string') this.#lastFinish = adk.finish_reason;
    if (typeof adk.error_code === 'string' || typeof adk.error_message === 'string') {
      this.#close('reasoning', steps);
      this.#close('text', steps);
      this.#sawError = true;
      const code = typeof adk.error_code === 'string' ? adk.error_code : undefined;
      steps.push({ kind: 'error', code, message: typeof adk.error_message === 'string' ? adk.error_message : `The agent reported ${code}` });
    }
    return steps;
  }

  /** The end of the events: closes any text a partial stream left open. */
  end(): TurnStep[] {
    const steps: TurnStep[] = [];
    this.#close('reasoning', steps);
    this.#close('text', steps);
    return steps;
  }

  get finishReason(): TurnFinishReason {
    if (this.#sawError) return 'error';
    if (this.#lastFinish === undefined) return 'stop';
    return finishReasons[this.#lastFinish] ?? 'other';
  }

  #readPart(part: Part, partial: boolean, steps: TurnStep[]): void {
    if (typeof part.text === 'string') {
      this.#readText(part.thought === true ? 'reasoning' : 'text', part.text, partial, steps);
      return;
    }
    if (partial) return;
    if (isRecord(part.function_call)) this.#readCall(part.function_call, steps);
    else if (isRecord(part.function_response)) this.#readResult(part.function_response, steps);
  }

  #readText(channel: TextChannel, text: string, partial: boolean, steps: TurnStep[]): void {
    const open = this.#open[channel];
    const said = this.#said[channel];
    if (partial) {
      if (text === '') return;
      let delta = text;
      if (open === undefined && said !== undefined) {
        // Partials after a complete event: an echo of it while they repeat its text, a new text once they do not.
        const echoed = said.echoed + text;
        if (said.author === this.#author && said.text.startsWith(echoed)) {
          said.echoed = echoed;
          return;
        }
        this.#said[channel] = undefined;
        delta = echoed;
      }
      const current = open ?? this.#start(channel, steps);
      current.streamed += delta;
      steps.push({ kind: 'text-delta', channel, id: current.id, delta });
      return;
    }
    if (open !== undefined) {
      if (text === '' || text.startsWith(open.streamed)) {
        // The complete event repeats what the deltas said (or says nothing): add only what they did not.
        const rest = text.slice(open.streamed.length);
        if (rest !== '') steps.push({ kind: 'text-delta', channel, id: open.id, delta: rest });
        this.#close(channel, steps);
        return;
      }
      // The final text contradicts the deltas: it replaces them, as a part of its own.
      this.#open[channel] = undefined;
      const replacement = this.#newId(channel);
      steps.push({ kind: 'text-end', channel, id: open.id, replacedBy: replacement });
      if (text !== '') {
        steps.push({ kind: 'text-start', channel, id: replacement }, { kind: 'text-delta', channel, id: replacement, delta: text });
        steps.push({ kind: 'text-end', channel, id: replacement });
      }
      return;
    }
    if (text === '') return;
    // The complete event its own partials echo: said already, once.
    if (said !== undefined && said.echoed !== '' && said.author === this.#author && said.text === text) {
      this.#said[channel] = undefined;
      return;
    }
    const current = this.#start(channel, steps);
    steps.push({ kind: 'text-delta', channel, id: current.id, delta: text });
    this.#close(channel, steps);
    this.#said[channel] = { text, author: this.#author, echoed: '' };
  }

  #readCall(call: Record<string, unknown>, steps: TurnStep[]): void {
    this.#said.text = this.#said.reasoning = undefined;
    this.#close('reasoning', steps);
    this.#close('text', steps);
    if (typeof call.name !== 'string' || call.name === '') {
      steps.push({ kind: 'error', code: undefined, message: 'agentgen: a function_call part has no name; it is left out' });
      return;
    }
    const id = typeof call.id === 'string' && call.id !== '' ? call.id : this.#newId('tool');
    const args = isRecord(call.args) ? call.args : {};
    this.#pendingCalls.push({ id, name: call.name });
    steps.push({ kind: 'tool-call', id, name: call.name, args });
  }

  #readResult(result: Record<string, unknown>, steps: TurnStep[]): void {
    this.#said.text = this.#said.reasoning = undefined;
    this.#close('reasoning', steps);
    this.#close('text', steps);
    const name = typeof result.name === 'string' ? result.name : '';
    let index = typeof result.id === 'string' && result.id !== '' ? this.#pendingCalls.findIndex((call) => call.id === result.id) : -1;
    if (index < 0 && (typeof result.id !== 'string' || result.id === '')) index = this.#pendingCalls.findIndex((call) => call.name === name);
    // A result whose call is not in this stream (an earlier turn's) has no tool part to complete in
    // either protocol: both readers reject it, so it is left out.
    if (index < 0) return;
    const [call] = this.#pendingCalls.splice(index, 1);
    steps.push({ kind: 'tool-result', id: call!.id, name: call!.name, response: result.response ?? {} });
  }

  #start(channel: TextChannel, steps: TurnStep[]): OpenText {
    const open: OpenText = { id: this.#newId(channel), streamed: '' };
    this.#open[channel] = open;
    steps.push({ kind: 'text-start', channel, id: open.id });
    return open;
  }

  #close(channel: TextChannel, steps: TurnStep[]): void {
    const open = this.#open[channel];
    if (open === undefined) return;
    this.#open[channel] = undefined;
    steps.push({ kind: 'text-end', channel, id: open.id });
  }
}

/** A fresh id from the platform's `crypto.randomUUID` (Node 19+, every current browser). */
export function randomId(): string {
  return globalThis.crypto.randomUUID();
}

/** What the browser is told by default when the event stream throws: nothing of the thrown message. */
export const genericErrorText = 'The agent stream failed';

/**
 * The default `onError`: a thrown message may hold anything (an address, a token, the platform's
 * wording), so, as the container does for a handler's error, the browser gets a generic text and
 * the real error goes to the server's log (`console.error`).
 */
export function genericError(error: unknown): string {
  console.error(`agentgen: the agent stream failed (the browser was told "${genericErrorText}"):`, error);
  return genericErrorText;
}

/** The opt-in `onError` that sends the thrown message to the browser (an `AgentApiError` says the status and the platform's message). */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : genericErrorText;
}
