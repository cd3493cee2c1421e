/** NDJSON output: one JSON line per event, the events of one tick in one write, with backpressure. */
import type { ServerResponse } from 'node:http';
import { jsonMediaType } from './content-type.js';

/** A stream writes at once when this much is pending, even within one tick. */
const streamBatchChars = 64 * 1024;
const streamHeaders = { 'content-type': jsonMediaType } as const;

/** setImmediate's callback, with the stream as its argument: no closure per stream. */
function flushAtTurnEnd(stream: NdjsonStream): void {
  stream.onTurnEnd();
}

export class NdjsonStream {
  readonly #res: ServerResponse;
  #pending = '';
  /** The flush at the end of this turn, while one is scheduled. */
  #scheduled: ReturnType<typeof setImmediate> | undefined;
  #stopped = false;
  /** True once the status line went out (headers or data). */
  started = false;
  /** Events queued so far (the server span's `agentgen.events_streamed`). */
  events = 0;
  /** Set while the socket buffer is full; the producer waits on it. */
  blocked: Promise<void> | undefined;
  #unblock: (() => void) | undefined;
  /** The `drain` listener, made the first time the socket buffer fills (most streams never do). */
  #releaser: (() => void) | undefined;

  constructor(res: ServerResponse) {
    this.#res = res;
    this.#schedule();
  }

  /** How much text is queued for the next write. */
  get pendingChars(): number {
    return this.#pending.length;
  }

  /** True once anything was sent or queued: an error then has to be the last line. */
  get hasOutput(): boolean {
    return this.started || this.#pending !== '';
  }

  /** Queues one event; returns true when a full batch was written and the producer should yield. */
  push(value: unknown): boolean {
    this.events++;
    this.#pending += `${JSON.stringify(value) ?? 'null'}\n`;
    if (this.#pending.length >= streamBatchChars) {
      this.#flush();
      return true;
    }
    this.#schedule();
    return false;
  }

  #schedule(): void {
    if (this.#scheduled !== undefined) return;
    this.#scheduled = setImmediate(flushAtTurnEnd, this);
  }

  /** The end of the turn in which events (or only the accepted stream's headers) were queued. */
  onTurnEnd(): void {
    this.#scheduled = undefined;
    this.#flush();
  }

  /** Nothing is left for the scheduled flush to do once the stream has ended. */
  #unschedule(): void {
    if (this.#scheduled === undefined) return;
    clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
  }

  #flush(): void {
    const res = this.#res;
    if (this.#stopped || res.writableEnded) return;
    if (!res.headersSent) res.writeHead(200, streamHeaders);
    this.started = true;
    if (this.#pending === '') {
      // Nothing produced yet: send the headers now (Node would hold them until the first write).
      res.flushHeaders();
      return;
    }
    const chunk = this.#pending;
    this.#pending = '';
    if (!res.write(chunk) && this.blocked === undefined) {
      this.blocked = new Promise((resolve) => {
        this.#unblock = resolve;
      });
      this.#releaser ??= () => this.#release();
      res.once('drain', this.#releaser);
    }
  }

  #release(): void {
    if (this.#releaser !== undefined) this.#res.off('drain', this.#releaser);
    const unblock = this.#unblock;
    this.blocked = undefined;
    this.#unblock = undefined;
    unblock?.();
  }

  /**
   * The stream's end comes now or later in this turn (turn-end.ts): what is pending waits for it,
   * so that the events and the end go out in one write, as they do when the end is written at
   * once, rather than in two (the stream's own turn-end flush was scheduled first and would run
   * first).
   */
  endsThisTurn(): void {
    this.#unschedule();
  }

  /** Writes what is pending plus `last`, and ends the response. */
  finish(last: string): void {
    const res = this.#res;
    if (this.#stopped || res.writableEnded) return;
    this.#stopped = true;
    this.#unschedule();
    if (!res.headersSent) res.writeHead(200, streamHeaders);
    this.started = true;
    res.end(this.#pending + last);
    this.#pending = '';
    this.#release();
  }

  /** The caller left: drop what is pending and wake a producer waiting for `drain`. */
  stop(): void {
    this.#stopped = true;
    this.#unschedule();
    this.#pending = '';
    this.#release();
  }
}
