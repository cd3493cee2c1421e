/**
 * The console's A2A panel, shown when the spec declares an A2A face: the card as the container
 * serves it through the passthrough (`…/reasoningEngines/v1/{resource}/api{mount}/.well-known/agent-card.json`),
 * and a message sent the way Gemini Enterprise sends one: A2A 0.3 JSON-RPC `message/stream`
 * (Gemini Enterprise speaks 0.3 streaming), given up after 300 s as its web app gives up on a
 * turn (google/adk-python #7106), each event a card of the timeline. Messages share one A2A
 * context until "New conversation", so a second message continues the session.
 */
import { readLines } from './api.js';
import { button, el } from './dom.js';
import { Turn } from './timeline.js';

/** Gemini Enterprise's web app gives up on a turn after 300 s (google/adk-python #7106). */
const geminiEnterpriseCutMs = 300_000;

interface Card {
  readonly name?: string;
  readonly description?: string;
  readonly url?: string;
  readonly version?: string;
  readonly protocolVersion?: string;
  readonly supportedInterfaces?: readonly { readonly protocolVersion?: string }[];
  readonly skills?: readonly { readonly id?: string; readonly name?: string; readonly examples?: readonly string[] }[];
}

export class A2APanel {
  readonly element: HTMLElement;
  #contextId: string | undefined;

  readonly #say: (text: string) => void;
  readonly #timeline: HTMLElement;
  readonly #token: () => string;
  readonly #base: string;
  constructor(base: string, token: () => string, timeline: HTMLElement, say: (text: string) => void) {
    this.#base = base;
    this.#token = token;
    this.#timeline = timeline;
    this.#say = say;

    this.element = el('div', { className: 'a2a' }, el('h2', {}, 'A2A'), el('p', { className: 'muted' }, 'Reading the agent card…'));
  }

  get #headers(): Record<string, string> {
    return { authorization: `Bearer ${this.#token()}`, 'content-type': 'application/json' };
  }

  async load(): Promise<void> {
    let card: Card;
    try {
      const res = await fetch(`${this.#base}/.well-known/agent-card.json`, { headers: this.#headers });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      card = (await res.json()) as Card;
    } catch (error) {
      this.element.replaceChildren(el('h2', {}, 'A2A'), el('p', { className: 'muted' }, `The agent card could not be read: ${(error as Error).message}`));
      return;
    }
    const versions = [...new Set([...(card.supportedInterfaces ?? []).map((i) => i.protocolVersion ?? ''), card.protocolVersion ?? ''])].filter(
      (v) => v !== '',
    );
    const example = card.skills?.flatMap((skill) => skill.examples ?? [])[0] ?? '';
    const input = el('input', { id: 'a2a-message', title: 'The message to send' });
    input.value = example;
    input.size = 40;
    const send = button('Send as Gemini Enterprise', () => void this.#send(input.value), 'primary');
    send.id = 'a2a-send';
    const fresh = button('New conversation', () => {
      this.#contextId = undefined;
      this.#say('A2A: the next message starts a new context');
    });
    this.element.replaceChildren(
      el('h2', {}, 'A2A ', el('span', { className: 'badge' }, versions.join(', '))),
      el('p', {}, el('strong', {}, card.name ?? ''), ' ', card.description ?? ''),
      el('p', { className: 'muted', id: 'a2a-url' }, card.url ?? ''),
      el('p', { className: 'muted' }, `skills: ${(card.skills ?? []).map((skill) => skill.name ?? skill.id ?? '').join(', ')}`),
      el('div', { className: 'row' }, input, send, fresh),
    );
  }

  /** A2A 0.3 `message/stream`, as Gemini Enterprise calls an agent; each result a card. */
  async #send(text: string): Promise<void> {
    const message = {
      kind: 'message',
      messageId: crypto.randomUUID(),
      role: 'user',
      parts: [{ kind: 'text', text }],
      ...(this.#contextId === undefined ? {} : { contextId: this.#contextId }),
    };
    const request = { jsonrpc: '2.0', id: 1, method: 'message/stream', params: { message } };
    const turn = new Turn('A2A message/stream (as Gemini Enterprise)', request);
    this.#timeline.append(turn.element);
    this.#say('A2A: streaming…');
    let events = 0;
    let last = '';
    try {
      const res = await fetch(this.#base, {
        method: 'POST',
        headers: { ...this.#headers, accept: 'text/event-stream' },
        body: JSON.stringify(request),
        signal: AbortSignal.timeout(geminiEnterpriseCutMs),
      });
      if (res.body === null) throw new Error(`HTTP ${res.status} without a body`);
      await readLines(res.body, (raw) => {
        const line = raw.trim();
        if (!line.startsWith('data:')) return;
        const frame = JSON.parse(line.slice(5)) as { result?: Record<string, unknown>; error?: unknown };
        events += 1;
        if (frame.error !== undefined) {
          turn.error(frame.error);
          return;
        }
        const result = frame.result ?? {};
        if (typeof result['contextId'] === 'string') this.#contextId = result['contextId'];
        const status = result['status'] as { state?: string } | undefined;
        if (status?.state !== undefined) last = status.state;
        turn.card('event', String(result['kind'] ?? 'result'), summary(result), result);
      });
      turn.note(`stream ended after ${events} events${last === '' ? '' : `, the task ${last}`}`);
      this.#say(`A2A: ${last === '' ? 'done' : last}`);
    } catch (error) {
      const cut = error instanceof DOMException && error.name === 'TimeoutError';
      turn.error(cut ? 'Gemini Enterprise gives up on a turn after 300 s: so did this call' : String(error));
      this.#say('A2A: failed');
    }
  }
}

/** One line for an A2A event's card: its state and the text of its parts. */
function summary(result: Record<string, unknown>): string {
  const status = result['status'] as { state?: string; message?: { parts?: readonly Record<string, unknown>[] } } | undefined;
  const artifact = result['artifact'] as { parts?: readonly Record<string, unknown>[] } | undefined;
  const parts = artifact?.parts ?? status?.message?.parts ?? [];
  const text = parts.map((part) => (typeof part['text'] === 'string' ? part['text'] : JSON.stringify(part['data'] ?? part))).join(' ');
  return [status?.state, text].filter((piece) => piece !== undefined && piece !== '').join(': ') || String(result['kind'] ?? '');
}
