/** The stream framing of `:streamQuery`: NDJSON lines, or server-sent-events `data:` lines. */
import { AgentApiError, errorFromStatus, quote } from './errors.js';
import { SseLines, type SseSink } from './sse-lines.js';

const cr = 13;
const openBrace = 123;
const colon = 58;
const letterD = 100;

/**
 * Reads a streamed body: NDJSON lines, or server-sent events. The first character that is not
 * whitespace decides which: `{` is NDJSON (`\r\n` accepted; a stray SSE `data:` line too), anything
 * else an event stream, read as the standard says (`SseLines`: bare CR line ends, multi-line
 * `data`). Partial lines are buffered across chunks and UTF-8 is decoded in stream mode, so a
 * character split between chunks survives. A line (or event) `{"error": ...}` ends the stream
 * with `error` set, after the events before it.
 *
 * Push-based and synchronous so the hot loop has no promise per line; `EventStream` wraps it.
 */
export class StreamLineReader {
  readonly #httpStatus: number;
  readonly #decoder = new TextDecoder('utf-8');
  #rest = '';
  /** Undecided until the first character that is not whitespace; then SSE or not for good. */
  #framing: 'json-lines' | SseLines | undefined;
  #undecided = '';
  /** Set once an error line or an unreadable line was seen; later input is ignored. */
  error: AgentApiError | undefined;

  constructor(httpStatus = 200) {
    this.#httpStatus = httpStatus;
  }

  /** Parses the complete lines of `chunk`, appending events to `out`. False once `error` is set. */
  push(chunk: Uint8Array, out: unknown[]): boolean {
    if (this.error !== undefined) return false;
    let text = this.#decoder.decode(chunk, { stream: true });
    if (this.#framing === undefined) {
      text = this.#undecided + text;
      if (!this.#decide(text)) {
        this.#undecided = text;
        return true;
      }
      this.#undecided = '';
    }
    if (this.#framing !== 'json-lines') return this.#framing!.feed(text, this.#sink(out));
    let start = 0;
    let newline = text.indexOf('\n');
    if (newline === -1) {
      this.#rest += text;
      return true;
    }
    // The first line completes what earlier chunks left over.
    if (this.#rest.length > 0) {
      const line = this.#rest + text.slice(0, newline);
      this.#rest = '';
      if (!this.#line(line, out)) return false;
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    while (newline !== -1) {
      if (!this.#line(text.slice(start, newline), out)) return false;
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    this.#rest = start < text.length ? text.slice(start) : '';
    return true;
  }

  /** The body ended: parses a last line without a newline. */
  end(out: unknown[]): boolean {
    if (this.error !== undefined) return false;
    const last = this.#decoder.decode();
    if (this.#framing === undefined) this.#decide(this.#undecided + last);
    if (this.#framing instanceof SseLines) return this.#framing.feed(last, this.#sink(out)) && this.#framing.end(this.#sink(out));
    const line = this.#undecided + this.#rest + last;
    this.#undecided = '';
    this.#rest = '';
    return this.#line(line, out);
  }

  /** Picks the framing once `text` has a character that is not whitespace; false while it has none. */
  #decide(text: string): boolean {
    const first = text.search(/\S/);
    if (first === -1) return false;
    this.#framing = text.charCodeAt(first) === openBrace ? 'json-lines' : new SseLines();
    return true;
  }

  #sink(out: unknown[]): SseSink {
    return {
      data: (data) => (data.trim().length === 0 ? true : this.#parse(data, out)),
      other: (line) => this.#parse(line, out), // neither JSON lines nor an event stream: refused as not JSON
    };
  }

  #line(raw: string, out: unknown[]): boolean {
    let line = raw;
    let first = line.charCodeAt(0);
    if (first !== openBrace) {
      if (line.length === 0) return true;
      if (line.charCodeAt(line.length - 1) === cr) line = line.slice(0, -1);
      if (first <= 32) line = line.trim();
      if (line.length === 0) return true;
      first = line.charCodeAt(0);
      if (first === colon) return true; // SSE comment
      if (first === letterD && line.startsWith('data:')) {
        line = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
        if (line.trim().length === 0) return true;
      } else if (/^(event|id|retry):/.test(line)) {
        return true; // other SSE fields carry nothing for us
      }
    }
    return this.#parse(line, out);
  }

  /** One event's JSON: appended to `out`, or the error it carries (or its not being JSON) set. */
  #parse(line: string, out: unknown[]): boolean {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.error = new AgentApiError({
        httpStatus: this.#httpStatus,
        code: 500,
        status: 'UNKNOWN',
        message: `Stream line is not JSON: ${quote(line)}`,
        body: line,
      });
      return false;
    }
    // An error line ends the stream. Checked cheaply: events have no `error` member.
    if (typeof value === 'object' && value !== null && (value as { error?: unknown }).error !== undefined) {
      const keys = Object.keys(value);
      if (keys.length === 1) {
        this.error = errorFromStatus(this.#httpStatus, (value as { error: unknown }).error, 500);
        return false;
      }
    }
    out.push(value);
    return true;
  }
}
