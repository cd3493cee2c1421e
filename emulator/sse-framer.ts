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
  private rest: Buffer | undefined;

  /** The framed bytes for the complete lines in `chunk`, or undefined when none completed. */
  push(chunk: Buffer): Buffer | undefined {
    const data = this.rest === undefined ? chunk : Buffer.concat([this.rest, chunk]);
    const parts: Buffer[] = [];
    let start = 0;
    let end = data.indexOf(newline, start);
    while (end !== -1) {
      this.frame(data.subarray(start, end), parts);
      start = end + 1;
      end = data.indexOf(newline, start);
    }
    this.rest = start < data.length ? Buffer.from(data.subarray(start)) : undefined;
    return parts.length > 0 ? Buffer.concat(parts) : undefined;
  }

  /** The container ended: frames a last line that had no newline. */
  end(): Buffer | undefined {
    const rest = this.rest;
    this.rest = undefined;
    if (rest === undefined) return undefined;
    const parts: Buffer[] = [];
    this.frame(rest, parts);
    return parts.length > 0 ? Buffer.concat(parts) : undefined;
  }

  private frame(raw: Buffer, parts: Buffer[]): void {
    const line = raw.length > 0 && raw[raw.length - 1] === carriageReturn ? raw.subarray(0, -1) : raw;
    // Blank lines carry no event; only a line starting with whitespace needs the full check.
    if (line.length === 0 || ((line[0] ?? 0) <= 32 && line.toString('latin1').trim().length === 0)) return;
    parts.push(prefix, line, suffix);
  }
}

export function sseFrame(text: string): string {
  return `data: ${text}\n\n`;
}
