/**
 * One call to the A2A face, as the contract's routes make theirs (reply.ts, call-span.ts): its
 * server span when OpenTelemetry records (a child of the caller's context, named after the
 * JSON-RPC method, active while the turn runs so that ADK's spans nest under it, ended and flushed
 * before the answer's last byte), and its log line.
 *
 * The line: the route, the JSON-RPC method when it is one the face knows (a name the caller made
 * up is never logged), the HTTP status, the latency and the face's own message (`ok`, or the error
 * it answered); the trace is the span's, else the caller's from `Google-Agent-Engine-Traceparent`.
 * The answer ends through the turn end as the contract routes' answers do (turn-end.ts): the entry
 * is made right after its last byte and the built-in JSON logger's line written in the same step;
 * the platform throttles a container's CPU once a response ends, so neither spans nor lines are
 * left for later. A caller that leaves before its answer gets
 * none and no line, as on the contract's routes.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { CallSpan, type Tracing } from '../server/call-span.js';
import { callerTrace, loggedPath } from '../server/logged-request.js';
import type { AgentServerLogger } from '../server/logger.js';
import { requestPath } from '../server/request-path.js';
import { turnEnd } from '../server/turn-end.js';

/** A failure of the face's own: the line says it, with the error; the caller's answer does not. */
export interface Failure {
  readonly message: string;
  readonly error: unknown;
}

export class A2ACall {
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #logger: AgentServerLogger | undefined;
  readonly #span: CallSpan | undefined;
  readonly #started: number;
  #operation: string | undefined;

  /** With `tracing` (a call to the JSON-RPC endpoint, not a card read), a span when an SDK records. */
  constructor(req: IncomingMessage, res: ServerResponse, logger: AgentServerLogger | undefined, tracing?: Tracing) {
    this.#req = req;
    this.#res = res;
    this.#logger = logger;
    this.#span = tracing?.recording() === true ? new CallSpan(tracing, req, res, requestPath(req.url ?? '/')) : undefined;
    this.#started = logger === undefined ? 0 : performance.now();
  }

  /** The JSON-RPC method, once the request names one the face knows. */
  set operation(name: string) {
    this.#operation = name;
    this.#span?.setOperation(name, undefined);
  }

  /** Runs `fn` with the call's span active: the turn's spans nest under it. */
  run<T>(fn: () => T): T {
    return this.#span === undefined ? fn() : this.#span.run(fn);
  }

  /** Answers `body` (JSON) once the call's spans have left, then logs `message` (or `failure`). */
  answer(status: number, body: string, message: string, failure?: Failure, headers: Readonly<Record<string, string>> = {}): void {
    const res = this.#res;
    if (res.headersSent || res.destroyed) return;
    const last = (): void => {
      if (res.headersSent || res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
      res.end(body);
      this.#log(status, failure?.message ?? message, failure?.error);
    };
    if (failure !== undefined) this.#span?.recordError(failure.error, failure.message);
    this.#end(status, last);
  }

  /** Ends a stream whose events have been written, once the call's spans have left, then logs it. */
  endStream(): void {
    const res = this.#res;
    const last = (): void => {
      if (res.writableEnded || res.destroyed) return;
      res.end();
      this.#log(200, 'ok');
    };
    this.#end(200, last);
  }

  /**
   * Runs `last` (the answer's last byte, then its entry) once the call's spans have left, as the
   * turn end orders it for the contract's routes (turn-end.ts): at once, or with a busy turn's
   * other answers, the JSON lines written right after it in the same step.
   */
  #end(status: number, last: () => void): void {
    const answer = { logs: this.#logger !== undefined, endNow: last };
    if (this.#span === undefined) turnEnd.end(answer);
    else this.#span.endThen(status, () => turnEnd.end(answer));
  }

  /** A failure after the stream's first byte: the connection is dropped, the line (an error's, written at once) says why. */
  breakStream(failure: Failure): void {
    this.#span?.recordError(failure.error, failure.message);
    this.#res.destroy();
    this.#log(200, failure.message, failure.error);
  }

  #log(status: number, message: string, error?: unknown): void {
    const logger = this.#logger;
    if (logger === undefined) return;
    try {
      logger({
        level: error === undefined ? 'info' : 'error',
        message,
        method: this.#req.method,
        path: loggedPath(this.#req.url),
        operation: this.#operation,
        status,
        durationMs: performance.now() - this.#started,
        error,
        trace: this.#span === undefined ? callerTrace(this.#req.rawHeaders) : this.#span.ids(),
      });
    } catch {
      // A failing logger must not take the server down.
    }
  }
}
