/**
 * One request/response exchange on a container route: the request checks in order, dispatch to
 * the declared operation, then the unary answer or the NDJSON stream, and what a disconnect or a
 * shutdown does to work in flight.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResponseKind } from '../contract.js';
import { CallSpan } from './call-span.js';
import { hotAfterCalls } from './compiled-validators.js';
import { parseEnvelope } from './envelope.js';
import { describeError, errorBody, errorLine } from './errors.js';
import { checkResult } from './output-checks.js';
import { closeWithoutReading } from './refused-body.js';
import { Reply } from './reply.js';
import { type BodyReader, readBody } from './request-body.js';
import {
  bodyTooLarge,
  checkDepth,
  checkMediaType,
  checkMethod,
  checkRoute,
  invalidInput,
  routeKind,
  unknownOperation,
  unknownRoute,
} from './request-checks.js';
import { type ContextOwner, RequestContext } from './request-context.js';
import { requestPath } from './request-path.js';
import type { ResolvedOperation, Settings } from './server-settings.js';
import { type PumpedCall, StreamPump } from './stream-pump.js';
import type { TrackedWork, Tracker } from './tracker.js';
import type { HandlerContext } from './types.js';
import { isThenable } from './values.js';

export class Exchange implements TrackedWork, BodyReader, ContextOwner, PumpedCall {
  readonly #req: IncomingMessage;
  readonly res: ServerResponse;
  readonly #settings: Settings;
  readonly #tracker: Tracker;
  readonly #reply: Reply;
  /** Made on first use of `context.signal`: most handlers never look, and it costs per request. */
  #controller: AbortController | undefined;
  #abortReason: Error | undefined;
  /** A streaming call's, from its handler's call on. */
  #pump: StreamPump | undefined;
  #kind: ResponseKind = 'unary';
  stopped = false;
  #watched = false;

  constructor(req: IncomingMessage, res: ServerResponse, settings: Settings, tracker: Tracker) {
    this.#req = req;
    this.res = res;
    this.#settings = settings;
    this.#tracker = tracker;
    this.#reply = new Reply(req, res, settings.logger, tracker);
  }

  /** From here on the work is asynchronous: a disconnect must stop it, a shutdown must end it. */
  #watch(): void {
    if (this.#watched) return;
    this.#watched = true;
    this.#tracker.add(this);
    this.res.on('close', () => this.#onClose());
  }

  signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#abortReason !== undefined) this.#controller.abort(this.#abortReason);
    }
    return this.#controller.signal;
  }

  abort(reason: Error): void {
    this.#abortReason ??= reason;
    this.#controller?.abort(reason);
  }

  #onClose(): void {
    this.#tracker.finished(this);
    if (this.res.writableFinished) return;
    // The caller went away before the response ended: stop the producer promptly.
    this.#stop();
  }

  #stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.abort(new Error('the caller went away'));
    this.#pump?.stop();
  }

  /** `context.keepAlive`: the work counts for the busy route until it settles. */
  keepAlive(work: PromiseLike<unknown>): void {
    this.#settings.busy.hold(work);
  }

  /** Shutdown has begun: the work goes on, but its connection closes when it is answered. */
  drain(): void {
    if (!this.res.headersSent) this.res.setHeader('connection', 'close');
  }

  /**
   * The end of a shutdown's grace: the work is given up. Its handler's signal aborts; a stream
   * ends with a last UNAVAILABLE line, a unary call is answered 503 UNAVAILABLE now (whatever its
   * handler returns later is dropped), so no caller is left to a reset when the process exits.
   */
  shutdown(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.abort(new Error('the server is shutting down'));
    const pump = this.#pump;
    if (pump === undefined) {
      const message = 'the server is shutting down';
      this.#reply.log('error', message, 503);
      this.#reply.send(503, errorBody('UNAVAILABLE', 503, message));
      return;
    }
    pump.close();
    this.#reply.end(200, () => pump.stream.finish(errorLine('UNAVAILABLE', 503, 'the server is shutting down')));
  }

  /**
   * Callback style on purpose, up to the handler call: a sync handler's answer is written in the
   * same tick as the body's `end`, with no promise per request (measured: a promise-based path
   * cost about a quarter more CPU per request than a hand-written server).
   */
  start(): void {
    const req = this.#req;
    const res = this.res;
    const reply = this.#reply;
    const url = req.url ?? '/';
    const path = requestPath(url);
    const kind = routeKind(path);
    if (kind === undefined) return reply.refuse(unknownRoute(path));
    const tracing = this.#settings.tracing;
    if (tracing?.recording()) reply.span = new CallSpan(tracing, req, res, path);
    const refused = checkMethod(req, res, path) ?? checkMediaType(req);
    if (refused !== undefined) return reply.refuse(refused);

    this.#kind = kind;
    readBody(req, this.#settings.bodyLimit, this);
  }

  onBody(text: string): void {
    try {
      this.#dispatch(text);
    } catch (error) {
      this.fail(error);
    }
  }

  /** 413 without reading the rest of the body: answer, then drop the connection. */
  onBodyTooLarge(size: number): void {
    // Node would otherwise read and discard the rest of the body to reuse the connection.
    closeWithoutReading(this.#req, this.res);
    this.#reply.refuse(bodyTooLarge(size, this.#settings.bodyLimit));
  }

  #dispatch(text: string): void {
    const settings = this.#settings;
    const reply = this.#reply;
    const envelope = parseEnvelope(text);
    if ('error' in envelope) return reply.refuse(envelope);

    const op = settings.operations.get(envelope.name);
    if (op === undefined) return reply.refuse(unknownOperation(envelope.name, settings.unknownSuffix));
    if (++op.calls === hotAfterCalls) settings.onHot(op);
    reply.operation = op.name;
    reply.span?.setOperation(op.name, op.apiMode);
    const refused = checkRoute(op, this.#kind) ?? checkDepth(op, envelope.input, settings.maxDepth);
    if (refused !== undefined) return reply.refuse(refused);
    const parsed = op.input.safeParse(envelope.input);
    if (!parsed.success) return reply.refuse(invalidInput(op, parsed.error.issues));

    const context = new RequestContext(this, this.#req, settings.engineId, op.name);
    const span = reply.span;
    if (op.kind === 'stream') {
      // With a span, the whole stream runs in its context: every pull of the producer nests there.
      if (span === undefined) this.#runStream(op, parsed.data, context);
      else span.run(() => this.#runStream(op, parsed.data, context));
      return;
    }
    let result: unknown;
    try {
      result =
        span === undefined
          ? op.handler.call(settings.handlers, parsed.data, context)
          : span.run(() => op.handler.call(settings.handlers, parsed.data, context));
    } catch (error) {
      this.fail(error);
      return;
    }
    if (isThenable(result)) {
      this.#watch();
      result.then(
        (value) => this.#respond(op, value),
        (error: unknown) => this.fail(error),
      );
    } else {
      this.#respond(op, result);
    }
  }

  #respond(op: ResolvedOperation, result: unknown): void {
    if (this.stopped) return;
    let body: string;
    try {
      if (op.output !== undefined) checkResult(op.name, op.output, result);
      // `{"output": null}` for a handler that returns nothing (JSON.stringify(undefined) is undefined).
      body = `{"output":${JSON.stringify(result) ?? 'null'}}`;
    } catch (error) {
      this.fail(error);
      return;
    }
    this.#reply.log('info', 'ok', 200);
    this.#reply.send(200, body);
  }

  /**
   * Not async, as `start` is not: one promise chain per stream (the pump's), where an async frame
   * here cost a promise and a resumption of its own per call. A failure anywhere ends in `fail`.
   *
   * A handler that returns a promise of its events (an async function that checks its input, or
   * finds a session, before the turn) is waited for before the stream is accepted: what it rejects
   * with is answered with its own status code (a refused session id is a 400), not after a 200 as
   * the stream's last line, where a caller reads it as the agent failing.
   */
  #runStream(op: ResolvedOperation, input: unknown, context: HandlerContext): void {
    this.#watch();
    let produced: unknown;
    try {
      produced = op.handler.call(this.#settings.handlers, input, context);
    } catch (error) {
      this.fail(error);
      return;
    }
    if (!isThenable(produced)) return this.#pumpStream(op, produced);
    Promise.resolve(produced).then(
      (value) => this.#pumpStream(op, value),
      (error: unknown) => this.fail(error),
    );
  }

  #pumpStream(op: ResolvedOperation, produced: unknown): void {
    const pump = new StreamPump(this.res, this, this.#settings.busy);
    this.#pump = pump;
    if (this.stopped) {
      // The caller left, or shutdown answered, while the handler was getting ready: nothing is
      // sent, and the pump closes the producer so that its generator's `finally` runs.
      pump.stop();
      void pump.run(op, produced);
      return;
    }
    this.#reply.span?.streams(pump.stream);
    pump.run(op, produced).then(
      () => this.#streamed(pump),
      (error: unknown) => this.fail(error),
    );
  }

  /** The producer is done: the stream's last byte, once its telemetry has left. */
  #streamed(pump: StreamPump): void {
    if (this.stopped) return;
    try {
      this.#reply.log('info', 'ok', 200);
      const { stream } = pump;
      // Without a span the end is written in this turn (now, or at its end with the log lines).
      if (this.#reply.span === undefined) stream.endsThisTurn();
      // A stream that has sent before ran over several turns (a model's): it ends at once, its
      // line written right after, rather than at the end of a turn that may be a later one; see
      // Reply.#atTurnEnd.
      this.#reply.end(200, () => stream.finish(''), stream.started ? Infinity : stream.pendingChars);
    } catch (error) {
      this.fail(error);
    }
  }

  /**
   * A thrown handler error or a failed stream: a JSON error when nothing was sent, else a last line.
   * Never throws: it runs in `.catch` handlers, where a throw would be an unhandled rejection.
   */
  fail(error: unknown): void {
    try {
      this.#failOrThrow(error);
    } catch {
      // Writing the error failed too (e.g. the socket broke): drop the connection.
      this.res.destroy();
      this.#reply.endedElsewhere();
    }
  }

  #failOrThrow(error: unknown): void {
    if (this.stopped) return;
    const reply = this.#reply;
    const { status, http, message, detail, errorId } = describeError(error, reply.operation);
    // A deliberate 4xx is the caller's doing: no stack. Anything else is the server's: all of it.
    if (http < 500) reply.log('info', detail, http);
    else {
      reply.log('error', detail, http, error, errorId);
      reply.span?.recordError(error, message);
    }
    const stream = this.#pump?.stream;
    if (stream?.hasOutput) {
      if (reply.span === undefined) stream.endsThisTurn();
      reply.end(200, () => stream.finish(errorLine(status, http, message)));
      return;
    }
    stream?.stop();
    if (this.res.headersSent) {
      this.res.end();
      reply.endedElsewhere();
      return;
    }
    reply.send(http, errorBody(status, http, message));
  }
}
