/**
 * Re-frames the container's NDJSON as server-sent events for `:streamQuery?alt=sse`: each complete
 * line (containers/ndjson-lines.ts cuts them) becomes `data: <line>\n\n` as soon as its newline
 * arrives.
 */
import { NdjsonLines } from '../containers/ndjson-lines.js';

const prefix = Buffer.from('data: ');
const suffix = Buffer.from('\n\n');

export class SseFramer {
  readonly #lines = new NdjsonLines();

  /** The framed bytes for the complete lines in `chunk`, or undefined when none completed. */
  push(chunk: Buffer): Buffer | undefined {
    const parts: Buffer[] = [];
    this.#lines.push(chunk, (line) => parts.push(prefix, line, suffix));
    return parts.length > 0 ? Buffer.concat(parts) : undefined;
  }

  /** The container ended: frames a last line that had no newline. */
  end(): Buffer | undefined {
    const last = this.#lines.end();
    return last === undefined ? undefined : Buffer.concat([prefix, last, suffix]);
  }
}

export function sseFrame(text: string): string {
  return `data: ${text}\n\n`;
}
