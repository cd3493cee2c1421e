/**
 * Server-sent events as the WHATWG HTML standard parses them ("Parsing an event stream"): lines
 * end at CRLF, LF or a bare CR (also when a CRLF is split between chunks), `data` lines of one
 * event join with "\n", a blank line dispatches the event. Comments and the fields `event`, `id`
 * and `retry` carry nothing for us. Any other line is handed back as it is, so the caller can
 * refuse a body that is neither JSON lines nor an event stream (an HTML error page) instead of
 * reading it as no events.
 */

const lf = 10;
const cr = 13;

export interface SseSink {
  /** An event's data; false stops the stream. */
  data(data: string): boolean;
  /** A line that is no part of an event stream; false stops the stream. */
  other(line: string): boolean;
}

export class SseLines {
  #partial = '';
  #afterCr = false;
  #data: string[] | undefined;

  /** Reads the complete lines of `text`; false once the sink stopped. */
  feed(text: string, sink: SseSink): boolean {
    let start = this.#afterCr && text.charCodeAt(0) === lf ? 1 : 0; // the LF of a CRLF split between chunks
    this.#afterCr = false;
    const lineEnd = /[\r\n]/g;
    lineEnd.lastIndex = start;
    for (let match = lineEnd.exec(text); match !== null; match = lineEnd.exec(text)) {
      const end = match.index;
      const line = this.#partial.length > 0 ? this.#partial + text.slice(start, end) : text.slice(start, end);
      this.#partial = '';
      start = end + 1;
      if (text.charCodeAt(end) === cr) {
        if (start === text.length) this.#afterCr = true;
        else if (text.charCodeAt(start) === lf) start++;
      }
      lineEnd.lastIndex = start;
      if (!this.#line(line, sink)) return false;
    }
    if (start < text.length) this.#partial += text.slice(start);
    return true;
  }

  /** The body ended: a last line without its end, and an event without its blank line, still count. */
  end(sink: SseSink): boolean {
    const partial = this.#partial;
    this.#partial = '';
    if (partial.length > 0 && !this.#line(partial, sink)) return false;
    return this.#line('', sink);
  }

  #line(line: string, sink: SseSink): boolean {
    if (line.length === 0) {
      const data = this.#data;
      this.#data = undefined;
      return data === undefined ? true : sink.data(data.length === 1 ? data[0]! : data.join('\n'));
    }
    const colon = line.indexOf(':');
    if (colon === 0) return true; // a comment
    if (line.trim().length === 0) return true; // whitespace only: neither a field nor the blank line that dispatches
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field === 'data') {
      const value = colon === -1 ? '' : line.charCodeAt(colon + 1) === 32 ? line.slice(colon + 2) : line.slice(colon + 1);
      (this.#data ??= []).push(value);
      return true;
    }
    if (field === 'event' || field === 'id' || field === 'retry') return true;
    return sink.other(line);
  }
}
