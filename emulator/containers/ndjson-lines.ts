/**
 * Cuts the container's NDJSON, which arrives in chunks cut anywhere, into whole lines: the gRPC
 * face sends one `google.api.HttpBody` per line, as soon as its newline arrives, so each message
 * holds one complete event (Google's SDKs parse each message's `data` on its own). Works on bytes:
 * a UTF-8 character split across chunks is carried over untouched. Blank lines are dropped and
 * `\r\n` ends a line like `\n`; each line is passed on with a single `\n`.
 */
const newline = 0x0a;
const carriageReturn = 0x0d;
const lineEnd = Buffer.from('\n');

export class NdjsonLines {
  /** The bytes of the line not yet complete, joined once when its newline arrives (linear in its size). */
  #pending: Buffer[] = [];

  /** The lines `chunk` completes, each ending with `\n`. */
  push(chunk: Buffer): Buffer[] {
    const lines: Buffer[] = [];
    let start = 0;
    let end = chunk.indexOf(newline);
    while (end !== -1) {
      const piece = chunk.subarray(start, end);
      if (this.#pending.length === 0) this.#emit(piece, lines);
      else {
        this.#pending.push(piece);
        this.#emit(Buffer.concat(this.#pending), lines);
        this.#pending = [];
      }
      start = end + 1;
      end = chunk.indexOf(newline, start);
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
    return lines;
  }

  /** The container ended: its last line, when it had no newline. */
  end(): Buffer | undefined {
    const pending = this.#pending;
    this.#pending = [];
    const lines: Buffer[] = [];
    if (pending.length > 0) this.#emit(Buffer.concat(pending), lines);
    return lines[0];
  }

  /** Drops what is left of an unfinished line (a broken-off stream: it is not an event). */
  discard(): void {
    this.#pending = [];
  }

  #emit(raw: Buffer, lines: Buffer[]): void {
    const line = raw.length > 0 && raw[raw.length - 1] === carriageReturn ? raw.subarray(0, -1) : raw;
    if (line.length === 0 || ((line[0] ?? 0) <= 32 && line.toString('latin1').trim().length === 0)) return;
    lines.push(Buffer.concat([line, lineEnd]));
  }
}
