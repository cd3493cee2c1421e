/**
 * The container's log lines on stdout, one write for all the lines of one turn of the event loop,
 * in the same synchronous step that ends the responses they belong to.
 *
 * A write per line was a tenth of a small call's CPU with stdout on a file (issue 48: unary
 * throughput against a plain node:http server fell from 0.92× to 0.81× with the default log
 * format on). Lines queued during one turn (every socket that was readable in it, and the
 * promises they resolved) go out together in the turn's check phase (`setImmediate`); dev batches
 * its log the same way (emulator/log-lines.ts), but over 10 ms, which the platform does not allow
 * here: it throttles a container's CPU once a response has ended, so a line left for a timer may
 * wait for the next request to be written. So a response whose line is queued is held
 * (`endWithLines`) to the check phase, where the held responses end and the lines are written
 * right after them, in one synchronous step: no timer and no wait for I/O lies between a
 * response's last byte and its line, and node emits the response's `finish` only after the line
 * is written. The responses go first so that a caller alone on its connection gets its answer
 * while the line is written rather than after it: on one connection, where no two calls share a
 * write, ending after the write had cost a logged unary call about a twentieth of its throughput
 * (paired rounds, issue 48). The order of lines is the order they were queued, each whole (one
 * `write` of whole lines). What is queued is also written at once on `flush()`: on an error entry,
 * a refusal answered outside an exchange, a large answer, the server's close, and the process's
 * `exit` (which runs on `process.exit` and after an uncaught exception). A process killed by a
 * signal with no handler loses the lines of its current turn; one killed between a held
 * response's end and the write that follows it in the same step loses that turn's lines.
 */
import { fstatSync, writeSync } from 'node:fs';

/** A response held to the step that writes the queued lines: it ends first, then they are written. */
export interface HeldForLines {
  endNow(): void;
}

export class LineQueue {
  #text = '';
  #held: HeldForLines[] = [];
  #immediate: ReturnType<typeof setImmediate> | undefined;
  #onExit: (() => void) | undefined;
  /** Where the lines go; the first write of the process's queue chooses (stdoutWriter). */
  write: (text: string) => void;

  constructor(write: (text: string) => void) {
    this.write = write;
  }

  /** Lines are queued and not yet written. */
  get pending(): boolean {
    return this.#text !== '';
  }

  /** Queues `text`, whole lines each ending in `\n`. */
  line(text: string): void {
    // A string built by `+=` is a rope in V8: one flat copy when it is written.
    this.#text += text;
    if (this.#immediate === undefined) {
      this.#immediate = setImmediate(this.#flushNow);
      if (this.#onExit === undefined) {
        this.#onExit = this.#flushNow;
        process.on('exit', this.#onExit);
      }
    }
  }

  /**
   * Runs `held.endNow()` in the step that writes what is queued now, right before the write: at
   * once when nothing is queued.
   */
  endWithLines(held: HeldForLines): void {
    if (this.#text === '') held.endNow();
    else this.#held.push(held);
  }

  /** Ends the held responses, then writes what is queued, in one synchronous step. */
  flush(): void {
    if (this.#immediate !== undefined) clearImmediate(this.#immediate);
    this.#immediate = undefined;
    const held = this.#held;
    if (held.length > 0) {
      this.#held = [];
      for (const one of held) {
        try {
          one.endNow();
        } catch {
          // One response failing to end must not keep the lines, or the other responses, back.
        }
      }
    }
    // Read after the ends: a line a response's end logged goes in this write too.
    const text = this.#text;
    this.#text = '';
    if (text === '') return;
    try {
      this.write(text);
    } catch {
      // stdout is gone (EPIPE): the lines are lost.
    }
  }

  readonly #flushNow = (): void => this.flush();
}

/**
 * Writes to stdout: straight to the file with `writeSync` when stdout is a regular file (what
 * `process.stdout` does there too, through a stream's machinery that cost as much as the system
 * call), else through `process.stdout` (a pipe or a terminal), which keeps the order of writes.
 */
function stdoutWriter(): (text: string) => void {
  let file = false;
  try {
    file = fstatSync(1).isFile();
  } catch {
    // No stdout to look at: `process.stdout` decides.
  }
  if (!file) return (text) => void process.stdout.write(text);
  return (text) => {
    // The text as it is: node encodes it for the call itself, where a Buffer made first took a
    // paired 2% of a logged unary call's CPU (issue 48). A file takes it whole; should it not, the
    // rest goes from a Buffer.
    const written = writeSync(1, text);
    const length = Buffer.byteLength(text);
    if (written === length) return;
    const bytes = Buffer.from(text, 'utf8');
    for (let at = written; at < length;) at += writeSync(1, bytes, at, length - at);
  };
}

/** The process's stdout queue: every built-in JSON logger of the process shares it, as they share stdout. */
export const stdoutLines = new LineQueue((text) => {
  const write = stdoutWriter();
  stdoutLines.write = write;
  write(text);
});
