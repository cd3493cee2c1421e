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
 * Log lines. A write per line was a tenth of a small call's CPU with stdout on a file (issue 48),
 * so the lines of a turn go out in one write. dev batches its log over 10 ms
 * (emulator/log-lines.ts), which the platform does not allow here: it throttles a container's CPU
 * once a response has ended, so a line left for a timer may wait for the next request to be
 * written. So an answer whose call logged a line is held to the turn's end even when first, and the
 * lines are written right after the held answers end: no timer and no wait for I/O lies between a
 * response's last byte and its line, and node emits the response's `finish` only after the line
 * is written. The answers go first so that a caller alone on its connection gets its answer while
 * the line is written rather than after it (paired rounds, one connection: ending after the write
 * had cost a logged unary call about a twentieth of its throughput). The lines keep the order they
 * were queued, each whole (one `write` of whole lines).
 *
 * What is queued is also written at once on `flush()`: on an error entry, a refusal answered
 * outside an exchange, a large answer, the server's close, and the process's `exit` (which runs on
 * `process.exit` and after an uncaught exception). A process killed by a signal with no handler
 * loses the lines of its current turn; one killed between a held answer's end and the write that
 * follows it in the same step loses that turn's lines.
 */
import { stdoutWriter } from './stdout-writer.js';

/** An answer held to the end of the turn. */
export interface HeldAnswer {
  endNow(): void;
}

export class TurnEnd {
  #text = '';
  #held: HeldAnswer[] = [];
  /** An answer has ended in this turn: the next one is held to its end. */
  #answered = false;
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
   * Ends `answer` now when it is the turn's first and no line waits, else at the end of the turn
   * with the others, right before the turn's lines are written.
   */
  end(answer: HeldAnswer): void {
    if (this.#answered || this.#text !== '') {
      this.#held.push(answer);
      this.#schedule();
      return;
    }
    this.#answered = true;
    this.#schedule();
    answer.endNow();
  }

  /** Ends the held answers, then writes what is queued, in one synchronous step. */
  flush(): void {
    if (this.#immediate !== undefined) clearImmediate(this.#immediate);
    this.#immediate = undefined;
    this.#answered = false;
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
    // Read after the ends: a line an answer's end logged goes in this write too.
    const text = this.#text;
    this.#text = '';
    if (text === '') return;
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
