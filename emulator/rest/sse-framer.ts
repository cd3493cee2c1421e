/**
 * Re-frames the container's NDJSON as server-sent events for `:streamQuery?alt=sse`: each complete
 * line becomes `data: <line>\n\n` as soon as its newline arrives. Works on bytes, so a UTF-8
 * character split across chunks is carried over untouched.
 */
const newline = 0x0a;
const carriageReturn = 0x0d;
const prefix = Buffer.from('data: ');
const suffix = Buffer.from('\n\n');

export class SseFramer {
  /**
   * The bytes of the line not yet complete, as received: kept in an array and joined once when its
   * newline arrives, so an event split into many chunks costs time linear in its size.
   */
  #pending: Buffer[] = [];

  /** The framed bytes for the complete lines in `chunk`, or undefined when none completed. */
  push(chunk: Buffer): Buffer | undefined {
    let end = chunk.indexOf(newline);
    if (end === -1) {
      if (chunk.length > 0) this.#pending.push(chunk);
      return undefined;
    }
    const parts: Buffer[] = [];
    let start = 0;
    while (end !== -1) {
      const piece = chunk.subarray(start, end);
      if (this.#pending.length === 0) {
        this.#frame(piece, parts);
      } else {
        this.#pending.push(piece);
        this.#frame(Buffer.concat(this.#pending), parts);
        this.#pending = [];
      }
      start = end + 1;
      end = chunk.indexOf(newline, start);
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
    return parts.length > 0 ? Buffer.concat(parts) : undefined;
  }

  /** The container ended: frames a last line that had no newline. */
  end(): Buffer | undefined {
    const pending = this.#pending;
    this.#pending = [];
    if (pending.length === 0) return undefined;
    const parts: Buffer[] = [];
    this.#frame(pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending), parts);
    return parts.length > 0 ? Buffer.concat(parts) : undefined;
  }

  #frame(raw: Buffer, parts: Buffer[]): void {
    const line = raw.length > 0 && raw[raw.length - 1] === carriageReturn ? raw.subarray(0, -1) : raw;
    // Blank lines carry no event; only a line starting with whitespace needs the full check.
    if (line.length === 0 || ((line[0] ?? 0) <= 32 && line.toString('latin1').trim().length === 0)) return;
    parts.push(prefix, line, suffix);
  }
}

export function sseFrame(text: string): string {
  return `data: ${text}\n\n`;
}
