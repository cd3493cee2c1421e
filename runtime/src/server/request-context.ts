/**
 * The handler's context. A class with `signal` as a prototype getter: the AbortController is made
 * only when a handler reads it (an object literal with a getter per request measured ~9 us).
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { HandlerContext } from './types.js';

/** All the context needs of its call (an Exchange): the signal is the call's to abort, kept-alive work the server's to count. */
export interface ContextOwner {
  signal(): AbortSignal;
  keepAlive(work: PromiseLike<unknown>): void;
}

export class RequestContext implements HandlerContext {
  readonly engineId: string | undefined;
  readonly operation: string;
  readonly #owner: ContextOwner;
  readonly #req: IncomingMessage;

  constructor(owner: ContextOwner, req: IncomingMessage, engineId: string | undefined, operation: string) {
    this.#owner = owner;
    this.#req = req;
    this.engineId = engineId;
    this.operation = operation;
  }

  keepAlive(work: PromiseLike<unknown>): void {
    this.#owner.keepAlive(work);
  }

  get signal(): AbortSignal {
    return this.#owner.signal();
  }

  /** Node builds `req.headers` lazily; so does this, for handlers that never look. */
  get headers(): IncomingHttpHeaders {
    return this.#req.headers;
  }
}
