/**
 * How one call is answered: its JSON answer, or the last byte of its stream, written once the
 * call's telemetry has left, and the log entry that says how it went, given to the logger right
 * after the answer ends. The span lives here for that reason: it must end, and be flushed, before
 * the answer does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallSpan, TraceIds } from './call-span.js';
import { jsonMediaType } from './content-type.js';
import { errorBody } from './errors.js';
import { callerTrace, loggedPath } from './logged-request.js';
import type { AgentServerLogger, LogEntry } from './logger.js';
import type { Refusal } from './request-checks.js';
import { type HeldAnswer, turnEnd } from './turn-end.js';

/** An answer this long ends at once, the log lines queued so far written right after it, rather than at the end of the turn (`#atTurnEnd`). */
const heldAnswerChars = 16 * 1024;

export class Reply implements HeldAnswer {
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
  /** What ends the response: now, or at the end of the turn with the others held to it (`endNow`). */
  #status = 0;
  #body = '';
  #last: (() => void) | undefined;
  /** How much text the end writes: the body, or what a stream has pending. */
  #size = 0;
  /** `send` or `end` was called: the first one answers, as it did when each wrote at once. */
  #ending = false;
  /** What the call's log entry says, given to the logger right after the answer ends (`endNow`). */
  #outcome: Outcome | undefined;

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
    if (this.#ending) return;
    this.#ending = true;
    this.#status = status;
    this.#body = body;
    this.#size = body.length;
    const span = this.span;
    // No closure on the hot path: only a traced call waits for its telemetry (see `end`).
    if (span === undefined) this.#atTurnEnd();
    else span.endThen(status, () => this.#atTurnEnd());
  }

  /**
   * The response ends now or at the end of this turn of the event loop, right before the turn's
   * log lines are written (turn-end.ts). A large answer does not wait for the end of the turn: it
   * ends now and the lines queued so far are written right after it, since holding its text across
   * the rest of the turn (while other calls allocate) cost more than the one write it would share
   * (64 KB answers at 50 connections: a fifth more CPU per request).
   */
  #atTurnEnd(): void {
    if (this.#size < heldAnswerChars) {
      turnEnd.end(this);
      return;
    }
    this.endNow();
    if (turnEnd.pending) turnEnd.flush();
  }

  get logs(): boolean {
    return this.#outcome !== undefined;
  }

  endNow(): void {
    try {
      this.#endResponse();
    } finally {
      const outcome = this.#outcome;
      if (outcome !== undefined) {
        this.#outcome = undefined;
        this.#logNow(outcome);
      }
    }
  }

  #endResponse(): void {
    const last = this.#last;
    if (last === undefined) {
      this.#write(this.#status, this.#body);
      return;
    }
    this.#last = undefined;
    try {
      last();
    } catch {
      // The stream's last write failed (the socket broke): drop the connection.
      this.#res.destroy();
    }
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
   * same). The call's log entry follows in the same step (`endNow`), and the JSON lines queued by
   * then are written right after it (turn-end.ts). With a span, it is ended and the SDK flushed
   * first. Otherwise `last` runs now or at the end of this turn of the event loop.
   */
  end(status: number, last: () => void, size = 0): void {
    if (this.#ending) return;
    this.#ending = true;
    this.#last = last;
    this.#size = size;
    const span = this.span;
    if (span === undefined) this.#atTurnEnd();
    else span.endThen(status, () => this.#atTurnEnd());
  }

  /**
   * Logs how the call went. Called right before `send` or `end`: the entry is made and given to
   * the logger right after the answer ends, in the same step (`endNow`), so that the caller does
   * not wait for it (a logged unary call alone on its connection, issue 48). Its latency is the
   * time until now. A call that has already answered logs at once.
   */
  log(level: LogEntry['level'], message: string, status: number, error?: unknown, errorId?: string): void {
    if (this.#logger === undefined) return;
    const outcome: Outcome = { level, message, status, durationMs: performance.now() - this.#started, error, errorId };
    if (this.#ending) return this.#logNow(outcome);
    // A second entry before the answer: the first goes now, in the order they came.
    if (this.#outcome !== undefined) this.#logNow(this.#outcome);
    this.#outcome = outcome;
  }

  /**
   * The response was ended, or dropped, without `send` or `end` (a failure after its headers, a
   * broken socket): the entry `log` was told goes to the logger now, its JSON line right after.
   */
  endedElsewhere(): void {
    const outcome = this.#outcome;
    if (outcome === undefined) return;
    this.#outcome = undefined;
    this.#logNow(outcome);
    if (turnEnd.pending) turnEnd.flush();
  }

  #logNow(outcome: Outcome): void {
    const logger = this.#logger;
    if (logger === undefined) return;
    try {
      logger({
        level: outcome.level,
        message: outcome.message,
        method: this.#req.method,
        path: loggedPath(this.#req.url),
        operation: this.operation,
        status: outcome.status,
        durationMs: outcome.durationMs,
        error: outcome.error,
        errorId: outcome.errorId,
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
    return this.span === undefined ? callerTrace(this.#req.rawHeaders) : this.span.ids();
  }
}

/** What `log` was told, kept until the answer has ended. */
interface Outcome {
  readonly level: LogEntry['level'];
  readonly message: string;
  readonly status: number;
  readonly durationMs: number;
  readonly error: unknown;
  readonly errorId: string | undefined;
}
