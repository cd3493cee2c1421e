/**
 * A call as a timeline of cards, each stamped with the time since the request was sent: model
 * text (growing as partial events stream in), a tool call with its exact arguments, a tool's
 * result, an `{"error"}` line or an error answer, a unary call's output, and any other event.
 * The raw JSON of each is one click away (a `<details>` under the card).
 */
import { el, inline, pretty } from './dom.js';

interface Part {
  readonly text?: string;
  readonly thought?: boolean;
  readonly function_call?: { readonly id?: string; readonly name?: string; readonly args?: unknown };
  readonly function_response?: { readonly id?: string; readonly name?: string; readonly response?: unknown };
}

interface StreamEvent {
  readonly author?: string;
  readonly partial?: boolean;
  readonly content?: { readonly role?: string; readonly parts?: readonly Part[] };
  readonly error?: unknown;
  readonly error_message?: string;
  readonly error_code?: string;
}

export type CardKind = 'text' | 'tool-call' | 'tool-result' | 'error' | 'output' | 'event' | 'request' | 'note';

const kindTitle: Record<CardKind, string> = {
  text: 'text',
  'tool-call': 'tool call',
  'tool-result': 'tool result',
  error: 'error',
  output: 'output',
  event: 'event',
  request: 'request',
  note: 'note',
};

/** The timeline of one call. */
export class Turn {
  readonly element: HTMLElement;
  readonly #started = performance.now();
  /** The text card partial events are growing, by author, until their final event. */
  readonly #growing = new Map<string, HTMLElement>();

  constructor(title: string, request: unknown) {
    this.element = el('section', { className: 'turn' }, el('h3', {}, title));
    this.card('request', 'you', pretty(request), undefined);
  }

  #stamp(): string {
    return `+${Math.round(performance.now() - this.#started)} ms`;
  }

  /** Appends one card: a kind, who it is from, its readable body and its raw JSON. */
  card(kind: CardKind, who: string, body: string, raw: unknown): HTMLElement {
    const bodyNode = el(kind === 'text' || kind === 'note' ? 'p' : 'pre', { className: 'body' }, body);
    const card = el(
      'article',
      { className: `card ${kind}`, 'data-kind': kind },
      el('header', {}, el('span', { className: 'kind' }, kindTitle[kind]), ' ', el('span', { className: 'who' }, who), el('time', {}, this.#stamp())),
      bodyNode,
    );
    if (raw !== undefined) card.append(el('details', {}, el('summary', {}, 'raw JSON'), el('pre', { className: 'raw' }, pretty(raw))));
    this.element.append(card);
    card.scrollIntoView({ block: 'nearest' });
    return card;
  }

  /** One streamed line: an event becomes one card per part (text, tool call, tool result), or an error card. */
  event(value: unknown): void {
    const event = (typeof value === 'object' && value !== null ? value : { error: value }) as StreamEvent;
    if (event.error !== undefined) {
      this.error(value);
      return;
    }
    // A handoff envelope ({"events": [...], "session_id"}) holds its events.
    const inner = (value as { events?: unknown }).events;
    if (Array.isArray(inner) && event.content === undefined) {
      for (const item of inner) this.event(item);
      return;
    }
    const who = event.author ?? event.content?.role ?? 'agent';
    const parts = event.content?.parts ?? [];
    let shown = false;
    for (const part of parts) {
      if (part.text !== undefined) {
        this.#text(who, part.text, event.partial === true, value);
        shown = true;
      } else if (part.function_call !== undefined) {
        this.card('tool-call', who, `${part.function_call.name ?? '?'}(${inline(part.function_call.args ?? {})})`, value);
        shown = true;
      } else if (part.function_response !== undefined) {
        this.card('tool-result', who, `${part.function_response.name ?? '?'} → ${pretty(part.function_response.response ?? null)}`, value);
        shown = true;
      }
    }
    if (event.error_message !== undefined || event.error_code !== undefined) {
      this.card('error', who, `${event.error_code ?? 'error'}: ${event.error_message ?? ''}`, value);
      shown = true;
    }
    if (!shown) this.card('event', who, summary(value), value);
  }

  /** Partial text grows one card; the final event (the whole text) settles it. */
  #text(who: string, text: string, partial: boolean, raw: unknown): void {
    const open = this.#growing.get(who);
    if (open !== undefined) {
      const body = open.querySelector('.body');
      if (body !== null) body.textContent = partial ? `${body.textContent ?? ''}${text}` : text;
      const rawNode = open.querySelector('.raw');
      if (rawNode !== null && !partial) rawNode.textContent = pretty(raw);
      if (!partial) {
        this.#growing.delete(who);
        open.classList.remove('streaming');
      }
      return;
    }
    const card = this.card('text', who, text, raw);
    if (partial) {
      card.classList.add('streaming');
      this.#growing.set(who, card);
    }
  }

  error(raw: unknown): void {
    const error = (raw as { error?: unknown })?.error ?? raw;
    const text =
      typeof error === 'object' && error !== null
        ? `${String((error as { status?: unknown }).status ?? (error as { code?: unknown }).code ?? 'error')}: ${String((error as { message?: unknown }).message ?? '')}`
        : String(error);
    this.card('error', 'emulator', text, raw);
  }

  output(value: unknown): void {
    this.card('output', 'agent', pretty(value), undefined);
  }

  note(text: string): void {
    this.card('note', 'console', text, undefined);
  }
}

/** What an event without text or tool parts is about: its keys, e.g. `actions, turn_complete`. */
function summary(value: unknown): string {
  if (typeof value !== 'object' || value === null) return String(value);
  const keys = Object.keys(value).filter((key) => !['id', 'invocation_id', 'author', 'timestamp'].includes(key));
  return keys.length === 0 ? '(empty event)' : keys.join(', ');
}
