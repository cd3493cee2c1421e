/**
 * The end of the current turn of the event loop (its check phase, `setImmediate`), where the
 * answers held to it end together and the container's JSON log lines queued in it are written
 * right after them, in one synchronous step.
 *
 * Answers. The first answer of a turn ends at once; those that follow it in the same turn (every
 * socket that was readable in it, and the promises they resolved) are held to its end and end
 * there together. A busy server then takes its callers' next requests in a few large turns rather
 * than many small ones: at 50 connections, in paired rounds (issue 48), a small unary call took a
 * fifth to a third less CPU and the server answered a quarter to a half more calls a second. A
 * caller alone on its connection is always first in its turn, so it is never held.
 *
 * Log lines. A call's line is made once its answer has ended (reply.ts) and written right after
 * it, in the same step: no timer and no wait for I/O lies between a response's last byte and its
 * line, and node emits the response's `finish` only after the line is written. dev batches its log
 * over 10 ms (emulator/log-lines.ts), which the platform does not allow here: it throttles a
 * container's CPU once a response has ended, so a line left for a timer may wait for the next
 * request to be written. An answer ended at once has its line written at once, with the lines
 * queued before it: a caller alone on its connection waits for neither the line nor a hop to the
 * turn's end (issue 48: the server bench's logs-on row of one connection went from under its 0.9
 * bar to over it; docs/performance.md, "Log lines"). Held answers end first and their
 * lines follow in one write: a write per line was a tenth of a small call's CPU with stdout on a
 * file. So that a busy server's lines keep sharing that write, an answer that logs is held even
 * when first in its turn when the turn before had more than one answer. The lines keep the order
 * they were queued, each whole (one `write` of whole lines).
 *
 * What is queued is also written at once on `flush()`: on an error entry, a refusal answered
 * outside an exchange, a large answer, the server's close, and the process's `exit` (which runs on
 * `process.exit` and after an uncaught exception). A process killed by a signal with no handler
 * loses the lines of its current turn; one killed between an answer's end and the write that
 * follows it in the same step loses the lines of that write.
 */
import { stdoutWriter } from './stdout-writer.js';

/** An answer, ended now or held to the end of the turn (`TurnEnd.end`). */
export interface HeldAnswer {
  endNow(): void;
  /** Its end logs a line. */
  readonly logs: boolean;
}

export class TurnEnd {
  #text = '';
  #held: HeldAnswer[] = [];
  /** The answers of this turn so far: the first ends at once, the next ones are held to its end. */
  #answers = 0;
  /** The last turn had more than one answer: a logged answer first in this one is held too, so that its line shares their write. */
  #busy = false;
  #immediate: ReturnType<typeof setImmediate> | undefined;
  #onExit: (() => void) | undefined;
  /** Where the lines go. */
  write: (text: string) => void;

  constructor(write: (text: string) => void) {
    this.write = write;
  }

  /** Lines are queued and not yet written. */
  get pending(): boolean {
    return this.#text !== '';
  }

  /** Queues `text`, whole lines each ending in `\n`, for the end of this turn. */
  line(text: string): void {
    // A string built by `+=` is a rope in V8: one flat copy when it is written.
    this.#text += text;
    this.#schedule();
    if (this.#onExit === undefined) {
      this.#onExit = this.#flushNow;
      process.on('exit', this.#onExit);
    }
  }

  /**
   * Ends `answer` now when it is the turn's first (and, if it logs, the last turn was not busy),
   * writing the lines queued by then right after it; else at the end of the turn with the others,
   * right before the turn's lines are written.
   */
  end(answer: HeldAnswer): void {
    if (this.#answers++ > 0 || (this.#busy && answer.logs)) {
      this.#held.push(answer);
      this.#schedule();
      return;
    }
    this.#schedule();
    try {
      answer.endNow();
    } finally {
      // Its line (its end logged it) and those queued before it, right after it in this step.
      if (this.#text !== '') this.#writeQueued();
    }
  }

  /** Ends the held answers, then writes what is queued, in one synchronous step. */
  flush(): void {
    if (this.#immediate !== undefined) clearImmediate(this.#immediate);
    this.#immediate = undefined;
    this.#busy = this.#answers > 1;
    this.#answers = 0;
    const held = this.#held;
    if (held.length > 0) {
      this.#held = [];
      for (const one of held) {
        try {
          one.endNow();
        } catch {
          // One answer failing to end must not keep the lines, or the other answers, back.
        }
      }
    }
    // After the ends: the lines their ends logged go in this write too.
    if (this.#text !== '') this.#writeQueued();
  }

  #writeQueued(): void {
    const text = this.#text;
    this.#text = '';
    try {
      this.write(text);
    } catch {
      // stdout is gone (EPIPE): the lines are lost.
    }
  }

  #schedule(): void {
    if (this.#immediate === undefined) this.#immediate = setImmediate(this.#flushNow);
  }

  readonly #flushNow = (): void => this.flush();
}

/**
 * The process's turn end: every server of the process, and every built-in JSON logger, shares it,
 * as they share the event loop and stdout. Its lines go to stdout (stdout-writer.ts), whose kind
 * the first write looks up.
 */
export const turnEnd = new TurnEnd((text) => {
  const write = stdoutWriter();
  turnEnd.write = write;
  write(text);
});
