/**
 * A streaming call's events, pulled from what its handler returned into the NDJSON stream: at the
 * socket's pace, with a turn for other requests between batches, each event checked when
 * `validateResults` is on; and the producer closed when the call stops, so that a generator's
 * `finally` runs.
 */
import type { ServerResponse } from 'node:http';
import type { Validator } from '../contract.js';
import type { BusyState } from './busy.js';
import { NdjsonStream } from './ndjson-stream.js';
import { checkEvent } from './output-checks.js';
import type { ResolvedOperation } from './server-settings.js';
import { type Closable, describeValue, isIterable, isThenable, iteratorOf, nextTurn } from './values.js';

/** What the pump needs of its call (an Exchange). */
export interface PumpedCall {
  /** The caller went away or the server gave up on the call: pull nothing more. */
  readonly stopped: boolean;
  /** Aborts the handler's signal. */
  abort(reason: Error): void;
}

type EventCheck = (value: unknown) => void;

export class StreamPump {
  readonly stream: NdjsonStream;
  readonly #call: PumpedCall;
  readonly #busy: BusyState;
  /** Set while the producer is pulled: what `close` closes. */
  #iterator: Closable | undefined;

  constructor(res: ServerResponse, call: PumpedCall, busy: BusyState) {
    // The stream is accepted: headers go out at the end of this tick even if no event is ready.
    this.stream = new NdjsonStream(res);
    this.#call = call;
    this.#busy = busy;
  }

  /**
   * `produced` is the handler's return value, awaited. Resolves when the producer is done or the
   * call stopped. Not itself async: the stream's one async frame is `#pull` (each async frame
   * costs a promise and turns of the microtask queue per call).
   */
  run(op: ResolvedOperation, produced: unknown): Promise<void> {
    if (this.#call.stopped) {
      // The caller left while the handler was getting ready: let its generator clean up.
      this.#iterator = iteratorOf(produced);
      this.close();
      return Promise.resolve();
    }
    if (!isIterable(produced)) {
      const what = describeValue(produced);
      return Promise.reject(new Error(`the handler of stream operation ${JSON.stringify(op.name)} returned ${what}, not an iterable`));
    }
    return this.#pull(op, produced as Iterable<unknown> | AsyncIterable<unknown>);
  }

  async #pull(op: ResolvedOperation, produced: Iterable<unknown> | AsyncIterable<unknown>): Promise<void> {
    const { stream } = this;
    const call = this.#call;
    try {
      const asyncFactory = (produced as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator];
      const asyncIterator = typeof asyncFactory === 'function' ? asyncFactory.call(produced) : undefined;
      const syncIterator = asyncIterator === undefined ? (produced as Iterable<unknown>)[Symbol.iterator]() : undefined;
      this.#iterator = asyncIterator ?? syncIterator;
      const check = op.output === undefined ? undefined : this.#eventCheck(op.name, op.output);
      for (;;) {
        if (stream.blocked !== undefined) await stream.blocked;
        if (call.stopped) return;
        if (syncIterator !== undefined) {
          // A sync generator produces its events in one tick: pull a batch, then write it at once.
          if (this.#writeBatch(syncIterator, check)) return;
          // A full batch was written; give other requests and the disconnect event a turn.
          await nextTurn();
          continue;
        }
        const step = await (asyncIterator as AsyncIterator<unknown>).next();
        if (call.stopped || step.done === true) return;
        check?.(step.value);
        if (stream.push(step.value)) await nextTurn();
      }
    } finally {
      // Done or failed: a later stop has no producer left to close.
      this.#iterator = undefined;
    }
  }

  /** True when the producer is done; false when a full batch was written. */
  #writeBatch(iterator: Iterator<unknown>, check: EventCheck | undefined): boolean {
    for (let step = iterator.next(); step.done !== true; step = iterator.next()) {
      check?.(step.value);
      if (this.stream.push(step.value)) return false;
    }
    return true;
  }

  /**
   * On a mismatch the producer is stopped (its signal aborted, its iterator closed) and the error
   * thrown ends the stream: after the events before it, as the last line, or as the whole answer
   * when nothing was sent yet.
   */
  #eventCheck(operation: string, output: Validator): EventCheck {
    let count = 0;
    return (value) => {
      try {
        checkEvent(operation, output, value, ++count);
      } catch (failure) {
        // A mismatch, or a validator (or the value's getters) that threw.
        this.#call.abort(failure instanceof Error ? failure : new Error('a streamed event failed its check'));
        this.close();
        throw failure;
      }
    };
  }

  /** The caller left: drop what is pending and close the producer. */
  stop(): void {
    this.stream.stop();
    this.close();
  }

  /** Closes the producer, so that its generator's `finally` runs. */
  close(): void {
    const iterator = this.#iterator;
    this.#iterator = undefined;
    if (iterator === undefined || typeof iterator.return !== 'function') return;
    try {
      const result = iterator.return();
      // A generator's `finally` (AgentApp deletes a handoff's temporary session there) may run on
      // after the response has ended: the busy route counts it until it is done.
      if (isThenable(result)) this.#busy.hold(result.then(undefined, () => undefined));
    } catch {
      // A generator that is still running or that throws from `finally` has nothing more to give.
    }
  }
}
