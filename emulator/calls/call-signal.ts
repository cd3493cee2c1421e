/**
 * How a face tells the forwarding that its caller went away. An AbortSignal is one (the gRPC face
 * passes its AbortController's); the REST face passes a `CallGone`, which does the same for the
 * one or two listeners a call has without an EventTarget: creating an AbortController, adding and
 * removing its listener cost more per call than the rest of the call's bookkeeping together.
 */
export interface CallSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** A CallSignal fired once by `abort()`; each listener runs at most once, as with `{ once: true }`. */
export class CallGone implements CallSignal {
  #aborted = false;
  #listeners: (() => void)[] | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  /** Every listener runs once at most, so `{ once: true }` is what it does anyway. */
  addEventListener(_type: 'abort', listener: () => void, _options?: { readonly once?: boolean }): void {
    if (this.#aborted) return; // as an aborted AbortSignal: a listener added after the abort never runs
    (this.#listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const listeners = this.#listeners;
    if (listeners === undefined) return;
    const index = listeners.indexOf(listener);
    if (index !== -1) listeners.splice(index, 1);
  }

  abort(): void {
    if (this.#aborted) return;
    this.#aborted = true;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener();
  }
}
