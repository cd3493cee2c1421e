/** The async iterator behind a streaming call. */
import { AgentApiError } from './errors.js';
import { StreamLineReader } from './line-reader.js';

/** A stream of events; iterating it sends the request. `break` or `return()` cancels the request. */
export interface EventStream<T = unknown> extends AsyncIterableIterator<T> {
  return(): Promise<IteratorResult<T, undefined>>;
}

export type Start = (signal: AbortSignal) => Promise<Response>;

/**
 * The async iterator behind a streaming call. It sends the request on the first `next()`, hands
 * out events from a batch parsed per chunk (a resolved promise per event, no generator machinery),
 * and cancels the request (abort + body cancel) on `return()`, `throw()`, an error, or the signal.
 */
export class ResponseEventStream implements EventStream {
  readonly #start: Start;
  readonly #userSignal: AbortSignal | undefined;
  readonly #controller = new AbortController();
  #queue: unknown[] = [];
  #head = 0;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  #lines: StreamLineReader | undefined;
  #pending: Promise<IteratorResult<unknown, undefined>> | undefined;
  #done = false;
  #failure: unknown;
  readonly #onAbort: () => void;

  constructor(start: Start, userSignal: AbortSignal | undefined) {
    this.#start = start;
    this.#userSignal = userSignal;
    this.#onAbort = () => this.#controller.abort(this.#userSignal?.reason);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<unknown, undefined>> {
    if (this.#pending !== undefined) return this.#pending.then(() => this.next());
    if (this.#head < this.#queue.length || this.#done) return this.#answer();
    const pending = this.#fill().finally(() => {
      this.#pending = undefined;
    });
    this.#pending = pending;
    return pending;
  }

  /** The next queued event, else the end or the failure (thrown once). */
  #answer(): Promise<IteratorResult<unknown, undefined>> {
    if (this.#head < this.#queue.length) {
      const value = this.#queue[this.#head++];
      return Promise.resolve({ value, done: false });
    }
    if (this.#failure !== undefined) {
      const failure = this.#failure;
      this.#failure = undefined;
      return Promise.reject(failure);
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  async return(): Promise<IteratorResult<unknown, undefined>> {
    this.#queue = [];
    this.#head = 0;
    this.#finish(undefined);
    return { value: undefined, done: true };
  }

  async throw(error?: unknown): Promise<IteratorResult<unknown, undefined>> {
    this.#queue = [];
    this.#head = 0;
    this.#finish(undefined);
    throw error;
  }

  /** Reads chunks until at least one event is queued or the stream is over. */
  async #fill(): Promise<IteratorResult<unknown, undefined>> {
    try {
      if (this.#reader === undefined) {
        // Listen to the caller's signal only once the request starts: a stream never iterated holds nothing.
        const signal = this.#userSignal;
        if (signal?.aborted === true) this.#controller.abort(signal.reason);
        else signal?.addEventListener('abort', this.#onAbort, { once: true });
        const response = await this.#start(this.#controller.signal);
        if (response.body === null)
          throw new AgentApiError({ httpStatus: response.status, code: 500, status: 'UNKNOWN', message: 'Stream response has no body' });
        this.#lines = new StreamLineReader(response.status);
        this.#reader = response.body.getReader();
      }
      const lines = this.#lines as StreamLineReader;
      this.#queue = [];
      this.#head = 0;
      while (this.#queue.length === 0) {
        const chunk = await this.#reader.read();
        const ok = chunk.done ? lines.end(this.#queue) : lines.push(chunk.value, this.#queue);
        if (!ok || chunk.done) {
          // Events before an error line are still delivered; the error comes after them.
          this.#finish(lines.error);
          break;
        }
      }
    } catch (error) {
      this.#finish(this.#controller.signal.aborted && this.#userSignal?.aborted ? this.#userSignal.reason : error);
    }
    return this.#answer();
  }

  /** Ends the stream once: releases the listener, aborts the request and cancels the body. */
  #finish(failure: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.#failure = failure;
    this.#userSignal?.removeEventListener('abort', this.#onAbort);
    const reader = this.#reader;
    this.#reader = undefined;
    if (reader !== undefined) reader.cancel().catch(() => undefined);
    this.#controller.abort();
  }
}
