/**
 * An incremental HTTP/1.1 response parser for the answers to dev's POSTs to a container: the
 * status line and the headers that frame the body (`content-length`, `transfer-encoding`,
 * `connection`), then the body by its length, in chunks, or up to the end of the connection.
 * Interim (1xx) answers are skipped, as node:http skips them. Body bytes are passed on as views
 * of what the socket read, never copied. Whatever does not parse is an `HttpParseError`: the
 * connection is then unusable and is closed by the caller.
 */

/** node:http's default bound on a response's head (`--max-http-header-size`), kept for the same answers. */
export const maxHeadBytes = 16 * 1024;
/** A chunk-size line is a hex number and perhaps extensions: anything this long is not one. */
const maxChunkLineBytes = 1024;

export class HttpParseError extends Error {
  readonly code = 'HPE_INVALID';
  constructor(reason: string) {
    super(`Parse Error: ${reason}`);
  }
}

export interface ParserEvents {
  /** The final (non-1xx) answer's status; its body follows. */
  head(status: number): void;
  body(chunk: Buffer): void;
  /** The answer is complete (its last byte was read). */
  done(): void;
}

const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: [^\r\n]*)?$/;
const digits = /^\d+$/;
const chunkSize = /^([0-9A-Fa-f]{1,13})[\t ]*(?:;.*)?$/;

enum State {
  Head,
  Length,
  ChunkLine,
  ChunkData,
  ChunkEnd,
  Trailers,
  UntilClose,
  Done,
}

export class ResponseParser {
  #events: ParserEvents | undefined;
  #state = State.Done;
  /** Bytes of an unfinished head, chunk line or trailer section. */
  #pending: Buffer | undefined;
  #remaining = 0;
  /** Whether the connection may carry another request once this answer is complete. */
  keepAlive = false;

  /** Starts on a new answer; `events` get its head, body and end. */
  expect(events: ParserEvents): void {
    this.#events = events;
    this.#state = State.Head;
    this.#pending = undefined;
    this.#remaining = 0;
    this.keepAlive = false;
  }

  get complete(): boolean {
    return this.#state === State.Done;
  }

  /**
   * Parses what the socket read. Bytes after the end of the answer are an error: dev never sends
   * a second request before the first is answered, so a server that sends them is broken.
   */
  feed(data: Buffer): void {
    let at = 0;
    while (at < data.length) {
      switch (this.#state) {
        case State.Head:
        case State.Trailers: {
          const end = this.#lineBlockEnd(data, at);
          if (end === -1) return;
          at = end;
          break;
        }
        case State.Length: {
          at = this.#body(data, at);
          if (this.#remaining === 0) this.#finish();
          break;
        }
        case State.ChunkLine: {
          const end = this.#chunkLine(data, at);
          if (end === -1) return;
          at = end;
          break;
        }
        case State.ChunkData: {
          at = this.#body(data, at);
          if (this.#remaining === 0) {
            this.#state = State.ChunkEnd;
            this.#remaining = 2;
          }
          break;
        }
        case State.ChunkEnd: {
          // The CRLF after a chunk's data, which may arrive a byte at a time.
          const expected = this.#remaining === 2 ? 13 : 10;
          if (data[at] !== expected) throw new HttpParseError('Missing expected CR after chunk data');
          at++;
          if (--this.#remaining === 0) this.#state = State.ChunkLine;
          break;
        }
        case State.UntilClose: {
          const chunk = at === 0 ? data : data.subarray(at);
          at = data.length;
          this.#events?.body(chunk);
          break;
        }
        case State.Done:
          throw new HttpParseError('Data after the end of the response');
      }
    }
  }

  /** The connection ended: true when that completes the answer (a body read up to the close). */
  eof(): boolean {
    if (this.#state === State.UntilClose) {
      this.#finish();
      return true;
    }
    return this.#state === State.Done;
  }

  /** Hands on up to `#remaining` body bytes from `at` (of a length-framed body or of one chunk); returns where it stopped. */
  #body(data: Buffer, at: number): number {
    const take = Math.min(this.#remaining, data.length - at);
    this.#remaining -= take;
    this.#events?.body(data.subarray(at, at + take));
    return at + take;
  }

  /** A head (or trailer section) ending in an empty line; returns where the bytes after it start, or -1 for more. */
  #lineBlockEnd(data: Buffer, at: number): number {
    const before = this.#pending?.length ?? 0;
    const buffer = before === 0 ? (at === 0 ? data : data.subarray(at)) : Buffer.concat([this.#pending as Buffer, data.subarray(at)]);
    // A trailer section may be empty: its end is then the CRLF right away.
    const end = this.#state === State.Trailers && buffer[0] === 13 && buffer[1] === 10 ? 0 : buffer.indexOf('\r\n\r\n');
    if (end === -1) {
      if (buffer.length > maxHeadBytes) throw new HttpParseError('Header overflow');
      this.#pending = buffer;
      return -1;
    }
    if (end > maxHeadBytes) throw new HttpParseError('Header overflow');
    this.#pending = undefined;
    const after = at + (end === 0 ? 2 : end + 4) - before;
    if (this.#state === State.Trailers) this.#finish();
    else this.#head(buffer.toString('latin1', 0, end));
    return after;
  }

  #head(text: string): void {
    const lines = text.split('\r\n');
    const status = statusLine.exec(lines[0] as string);
    if (status === null) throw new HttpParseError('Invalid status line');
    const minor = status[1];
    const code = Number(status[2]);
    let length: number | undefined;
    let chunked = false;
    let encoded = false;
    let close = minor === '0';
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] as string;
      const colon = line.indexOf(':');
      const name = colon <= 0 ? '' : line.slice(0, colon);
      if (!token.test(name)) throw new HttpParseError('Invalid header line');
      // Only the headers that frame the answer matter here; their names are compared without case.
      if (name.length !== 10 && name.length !== 14 && name.length !== 17) continue;
      const lower = name.toLowerCase();
      const value = line
        .slice(colon + 1)
        .trim()
        .toLowerCase();
      if (lower === 'content-length') {
        if (!digits.test(value)) throw new HttpParseError('Invalid Content-Length');
        const parsed = Number(value);
        if (!Number.isSafeInteger(parsed) || (length !== undefined && length !== parsed)) throw new HttpParseError('Invalid Content-Length');
        length = parsed;
      } else if (lower === 'transfer-encoding') {
        encoded = true;
        const codings = value.split(',');
        chunked = codings[codings.length - 1]?.trim() === 'chunked';
      } else if (lower === 'connection') {
        for (const option of value.split(',')) {
          const trimmed = option.trim();
          if (trimmed === 'close') close = true;
          else if (trimmed === 'keep-alive' && minor === '0') close = false;
        }
      }
    }
    if (code < 200) {
      // 101 would hand the connection over to another protocol: not an answer to a POST of dev's.
      if (code === 101) throw new HttpParseError('Unexpected protocol upgrade');
      this.#state = State.Head; // an interim answer: the real one follows
      return;
    }
    if (encoded && length !== undefined) throw new HttpParseError('Both Transfer-Encoding and Content-Length');
    this.keepAlive = !close;
    this.#events?.head(code);
    if (code === 204 || code === 304 || length === 0) this.#finish();
    else if (chunked) this.#state = State.ChunkLine;
    else if (length !== undefined && !encoded) {
      this.#state = State.Length;
      this.#remaining = length;
    } else {
      // Neither a length nor chunks: the body runs to the end of the connection, which cannot be reused.
      this.keepAlive = false;
      this.#state = State.UntilClose;
    }
  }

  #chunkLine(data: Buffer, at: number): number {
    const before = this.#pending?.length ?? 0;
    const buffer = before === 0 ? (at === 0 ? data : data.subarray(at)) : Buffer.concat([this.#pending as Buffer, data.subarray(at)]);
    const end = buffer.indexOf('\r\n');
    if (end === -1) {
      if (buffer.length > maxChunkLineBytes) throw new HttpParseError('Invalid chunk size line');
      this.#pending = buffer;
      return -1;
    }
    this.#pending = undefined;
    const size = chunkSize.exec(buffer.toString('latin1', 0, end));
    if (size === null) throw new HttpParseError('Invalid character in chunk size');
    const bytes = parseInt(size[1] as string, 16);
    if (bytes === 0) this.#state = State.Trailers;
    else {
      this.#state = State.ChunkData;
      this.#remaining = bytes;
    }
    return at + end + 2 - before;
  }

  #finish(): void {
    this.#state = State.Done;
    this.#events?.done();
  }
}
