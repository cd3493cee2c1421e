/**
 * Cuts the NDJSON a container streams, which arrives in chunks cut anywhere, into whole lines, each
 * passed on as soon as its newline arrives: both faces re-frame it line by line, the REST face as
 * server-sent events (rest/sse-framer.ts), the gRPC face as one `google.api.HttpBody` per line
 * (grpc/query-methods.ts; Google's SDKs parse each message's `data` on its own). Works on bytes: a
 * UTF-8 character split across chunks is carried over untouched. `\r\n` ends a line like `\n`, and
 * blank lines, which carry no event, are dropped.
 */
const newline = 0x0a;
const carriageReturn = 0x0d;

export class NdjsonLines {
  /**
   * The bytes of the line not yet complete, as received: kept in an array and joined once when its
   * newline arrives, so an event split into many chunks costs time linear in its size.
   */
  #pending: Buffer[] = [];

  /** Calls `each` with every line `chunk` completes, without its line end. */
  push(chunk: Buffer, each: (line: Buffer) => void): void {
    let start = 0;
    let end = chunk.indexOf(newline);
    while (end !== -1) {
      const piece = chunk.subarray(start, end);
      if (this.#pending.length === 0) passOn(piece, each);
      else {
        this.#pending.push(piece);
        passOn(Buffer.concat(this.#pending), each);
        this.#pending = [];
      }
      start = end + 1;
      end = chunk.indexOf(newline, start);
    }
    if (start < chunk.length) this.#pending.push(start === 0 ? chunk : chunk.subarray(start));
  }

  /** The container ended: its last line, when it had no newline (and is not blank). */
  end(): Buffer | undefined {
    const pending = this.#pending;
    this.#pending = [];
    let last: Buffer | undefined;
    if (pending.length > 0) passOn(pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending), (line) => (last = line));
    return last;
  }

  /** Drops what is left of an unfinished line (a broken-off stream: it is not an event). */
  discard(): void {
    this.#pending = [];
  }
}

function passOn(raw: Buffer, each: (line: Buffer) => void): void {
  const line = raw.length > 0 && raw[raw.length - 1] === carriageReturn ? raw.subarray(0, -1) : raw;
  // Only a line starting with whitespace needs the full check for a blank one.
  if (line.length === 0 || ((line[0] ?? 0) <= 32 && line.toString('latin1').trim().length === 0)) return;
  each(line);
}
