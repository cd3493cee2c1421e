/**
 * How one call is answered: its JSON answer, or the last byte of its stream, written once the
 * call's telemetry has left, and the log entries that say how it went. The span lives here for
 * that reason: it must end, and be flushed, before the answer does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallSpan, TraceIds } from './call-span.js';
import { jsonMediaType } from './content-type.js';
import { errorBody } from './errors.js';
import type { AgentServerLogger, LogEntry } from './logger.js';
import type { Refusal } from './request-checks.js';
import { readIncomingTrace } from './trace-context.js';

export class Reply {
  /** The call's server span; only when OpenTelemetry is installed. */
  span: CallSpan | undefined;
  /** The declared operation, once the envelope names one. */
  operation: string | undefined;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #logger: AgentServerLogger | undefined;
  /** The server's shutdown has begun (the Tracker): the connection closes after this answer. */
  readonly #server: { readonly closing: boolean };
  readonly #started: number;

  constructor(req: IncomingMessage, res: ServerResponse, logger: AgentServerLogger | undefined, server: { readonly closing: boolean }) {
    this.#req = req;
    this.#res = res;
    this.#logger = logger;
    this.#server = server;
    this.#started = logger === undefined ? 0 : performance.now();
  }

  refuse(refusal: Refusal): void {
    const { row, error } = refusal;
    this.log(row.http >= 500 ? 'error' : 'info', error, row.http);
    this.send(row.http, errorBody(row.status, row.http, error));
  }

  send(status: number, body: string): void {
    const span = this.span;
    // No closure on the hot path: only a traced call waits for its telemetry (see `end`).
    if (span === undefined) this.#write(status, body);
    else span.endThen(status, () => this.#write(status, body));
  }

  #write(status: number, body: string): void {
    const res = this.#res;
    if (res.headersSent || res.writableEnded) return;
    if (this.#server.closing) res.setHeader('connection', 'close');
    res.writeHead(status, { 'content-type': jsonMediaType, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }

  /**
   * Runs `last`, which writes the answer's last byte, once the call's telemetry has left: the
   * platform throttles a container's CPU the moment a response ends (the reference AdkApp
   * force-flushes OpenTelemetry before it answers; adk-js's Agent Engine telemetry guide says the
   * same). Log lines are written before this (stdout and stderr are synchronous on Linux pipes and
   * files); with a span, it is ended and the SDK flushed first. Without one, `last` runs now.
   */
  end(status: number, last: () => void): void {
    const span = this.span;
    if (span === undefined) last();
    else span.endThen(status, last);
  }

  log(level: LogEntry['level'], message: string, status: number, error?: unknown, errorId?: string): void {
    const logger = this.#logger;
    if (logger === undefined) return;
    try {
      logger({
        level,
        message,
        method: this.#req.method,
        path: this.#req.url,
        operation: this.operation,
        status,
        durationMs: performance.now() - this.#started,
        error,
        errorId,
        trace: this.#traceIds(),
      });
    } catch {
      // A failing logger must not take a request down with it.
    }
  }

  /**
   * The trace a log entry links to: the server span's, else (no OpenTelemetry) the caller's
   * context from the headers, read only when there is a logger to write it.
   */
  #traceIds(): TraceIds | undefined {
    if (this.span !== undefined) return this.span.ids();
    const parent = readIncomingTrace(this.#req.rawHeaders).parent;
    return parent === undefined ? undefined : { traceId: parent.traceId, spanId: parent.spanId, sampled: (parent.traceFlags & 1) === 1 };
  }
}
