/**
 * One request/response exchange on a container route: route and method checks, the body under
 * its limit, the envelope, dispatch to the declared operation, validation, then the unary answer
 * or the NDJSON stream (each result or event checked against the declared output when
 * `validateResults` is on), and what a disconnect or a shutdown does to work in flight.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { containerErrors, containerRoutes, type ErrorRow, type Validator } from '../contract.js';
import type { BusyState } from './busy.js';
import { CallSpan, type TraceIds, type Tracing } from './call-span.js';
import { checkContentType, describeIssues, jsonMediaType, nestedDeeperThan, parseEnvelope, rawHeader, rawHeaderList } from './envelope.js';
import { AgentError, describeError, errorBody, errorLine } from './errors.js';
import type { AgentServerLogger, LogEntry } from './logger.js';
import { NdjsonStream } from './ndjson-stream.js';
import { closeWithoutReading } from './refused-body.js';
import { readIncomingTrace } from './trace-context.js';
import type { Tracker, TrackedWork } from './tracker.js';
import type { HandlerContext, OperationHandler, ResponseKind } from './types.js';
import { clip, describeValue, isIterable, isThenable, iteratorOf, nextTurn, type Closable } from './values.js';

/** A declared operation with its handler, resolved once when the server is built. */
export interface ResolvedOperation {
  readonly name: string;
  readonly kind: ResponseKind;
  /** The declared `api_mode`, when the operation table carries it (tables generated before it did not). */
  readonly apiMode: string | undefined;
  readonly input: Validator;
  /** The declared result or event schema, when `validateResults` is on and there is one; else undefined. */
  readonly output: Validator | undefined;
  readonly handler: OperationHandler;
  readonly wrongRouteMessage: string;
}

/** What every exchange of one server shares. */
export interface Settings {
  readonly operations: ReadonlyMap<string, ResolvedOperation>;
  /** The handlers object: `this` of every handler call. */
  readonly handlers: object;
  readonly bodyLimit: number;
  /** Deepest nesting of objects and arrays accepted in `input` (the input object is level 1). */
  readonly maxDepth: number;
  readonly logger: AgentServerLogger | undefined;
  readonly engineId: string | undefined;
  /** Appended to an unknown-operation message: the declared names. */
  readonly unknownSuffix: string;
  /** Set once `@opentelemetry/api` has loaded (see dispatcher.ts); undefined without it. */
  tracing: Tracing | undefined;
  /** Work handlers hold open with `context.keepAlive`, for the busy route. */
  readonly busy: BusyState;
}

export class Exchange implements TrackedWork {
  private readonly req: IncomingMessage;
  readonly res: ServerResponse;
  private readonly settings: Settings;
  private readonly tracker: Tracker<Exchange>;
  private readonly started: number;
  /** Made on first use of `context.signal`: most handlers never look, and it costs per request. */
  private controller: AbortController | undefined;
  private abortReason: Error | undefined;
  private operation: string | undefined;
  private stream: NdjsonStream | undefined;
  private kind: ResponseKind = 'unary';
  private iterator: Closable | undefined;
  private stopped = false;
  private watched = false;
  /** The call's server span; only when OpenTelemetry is installed. */
  private span: CallSpan | undefined;

  constructor(req: IncomingMessage, res: ServerResponse, settings: Settings, tracker: Tracker<Exchange>) {
    this.req = req;
    this.res = res;
    this.settings = settings;
    this.tracker = tracker;
    this.started = settings.logger === undefined ? 0 : performance.now();
  }

  /** From here on the work is asynchronous: a disconnect must stop it, a shutdown must end it. */
  private watch(): void {
    if (this.watched) return;
    this.watched = true;
    this.tracker.add(this);
    this.res.on('close', () => this.onClose());
  }

  signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortReason !== undefined) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  private abort(reason: Error): void {
    this.abortReason ??= reason;
    this.controller?.abort(reason);
  }

  private onClose(): void {
    this.tracker.finished(this);
    if (this.res.writableFinished) return;
    // The caller went away before the response ended: stop the producer promptly.
    this.stop();
  }

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.abort(new Error('the caller went away'));
    this.stream?.stop();
    this.closeIterator();
  }

  private closeIterator(): void {
    const iterator = this.iterator;
    this.iterator = undefined;
    if (iterator === undefined || typeof iterator.return !== 'function') return;
    try {
      const result = iterator.return();
      // A generator's `finally` (AgentApp deletes a handoff's temporary session there) may run on
      // after the response has ended: the busy route counts it until it is done.
      if (isThenable(result)) this.settings.busy.hold(result.then(undefined, () => undefined));
    } catch {
      // A generator that is still running or that throws from `finally` has nothing more to give.
    }
  }

  /** `context.keepAlive`: the work counts for the busy route until it settles. */
  keepAlive(work: PromiseLike<unknown>): void {
    this.settings.busy.hold(work);
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
    const stream = this.stream;
    if (stream === undefined) {
      const message = 'the server is shutting down';
      this.log('error', message, 503);
      this.send(503, errorBody('UNAVAILABLE', 503, message));
      return;
    }
    this.closeIterator();
    this.beforeLastByte(200, () => stream.finish(errorLine('UNAVAILABLE', 503, 'the server is shutting down')));
  }

  /**
   * Callback style on purpose, up to the handler call: a sync handler's answer is written in the
   * same tick as the body's `end`, with no promise per request (measured: a promise-based path
   * cost about a quarter more CPU per request than a hand-written server).
   */
  start(): void {
    const { req, res } = this;
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const kind: ResponseKind | undefined =
      path === containerRoutes.unary ? 'unary' : path === containerRoutes.stream ? 'stream' : undefined;
    if (kind === undefined) {
      const served = `POST ${containerRoutes.unary} and POST ${containerRoutes.stream}`;
      return this.reject(containerErrors.unknownPath, `no route ${JSON.stringify(clip(path))}; the container serves ${served}`);
    }
    const tracing = this.settings.tracing;
    if (tracing !== undefined && tracing.recording()) this.span = new CallSpan(tracing, req, res, path);
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      const message = `method ${req.method ?? ''} is not allowed on ${path}: use POST`;
      return this.reject(containerErrors.methodNotAllowed, message);
    }
    const mediaError = checkContentType(rawHeaderList(req.rawHeaders, 'content-type'));
    if (mediaError !== undefined) return this.reject(containerErrors.unsupportedMediaType, mediaError);

    this.kind = kind;
    this.readBody();
  }

  private onBody(text: string): void {
    const { req } = this;
    const kind = this.kind;
    const envelope = parseEnvelope(text);
    if ('error' in envelope) return this.reject(envelope.row, envelope.error);

    const op = this.settings.operations.get(envelope.name);
    if (op === undefined) {
      const message = `unknown operation ${JSON.stringify(clip(envelope.name))}${this.settings.unknownSuffix}`;
      return this.reject(containerErrors.unknownOperation, message);
    }
    this.operation = op.name;
    this.span?.setOperation(op.name, op.apiMode);
    if (op.kind !== kind) return this.reject(containerErrors.wrongRoute, op.wrongRouteMessage);

    if (nestedDeeperThan(envelope.input, this.settings.maxDepth)) {
      const message = `invalid input for ${JSON.stringify(op.name)}: nested deeper than the limit of ${this.settings.maxDepth} levels`;
      return this.reject(containerErrors.invalidInput, message);
    }
    const parsed = op.input.safeParse(envelope.input);
    if (!parsed.success) {
      const message = `invalid input for ${JSON.stringify(op.name)}: ${describeIssues(parsed.error.issues)}`;
      return this.reject(containerErrors.invalidInput, message);
    }
    const context = new RequestContext(this, req, this.settings.engineId, op.name);
    const span = this.span;
    if (op.kind === 'stream') {
      // With a span, the whole stream runs in its context: every pull of the producer nests there.
      const running = span === undefined ? this.runStream(op, parsed.data, context) : span.run(() => this.runStream(op, parsed.data, context));
      running.catch((error: unknown) => this.fail(error));
      return;
    }
    let result: unknown;
    try {
      result =
        span === undefined
          ? op.handler.call(this.settings.handlers, parsed.data, context)
          : span.run(() => op.handler.call(this.settings.handlers, parsed.data, context));
    } catch (error) {
      this.fail(error);
      return;
    }
    if (isThenable(result)) {
      this.watch();
      result.then(
        (value) => this.reply(op, value),
        (error: unknown) => this.fail(error),
      );
    } else {
      this.reply(op, result);
    }
  }

  private reply(op: ResolvedOperation, result: unknown): void {
    if (this.stopped) return;
    let body: string;
    try {
      if (op.output !== undefined) {
        const issues = outputIssues(op.output, result, '(result)');
        if (issues !== undefined) {
          throw invalidOutput(`operation ${JSON.stringify(op.name)} returned a result that does not match its declared output: ${issues}`);
        }
      }
      // `{"output": null}` for a handler that returns nothing (JSON.stringify(undefined) is undefined).
      body = `{"output":${JSON.stringify(result) ?? 'null'}}`;
    } catch (error) {
      this.fail(error);
      return;
    }
    this.log('info', 'ok', 200);
    this.send(200, body);
  }

  private async runStream(op: ResolvedOperation, input: unknown, context: HandlerContext): Promise<void> {
    this.watch();
    let produced = op.handler.call(this.settings.handlers, input, context);
    // The stream is accepted: headers go out at the end of this tick even if no event is ready.
    const stream = new NdjsonStream(this.res);
    this.stream = stream;
    this.span?.streams(stream);
    if (isThenable(produced)) produced = await produced;
    if (this.stopped) {
      // The caller left while the handler was getting ready: let its generator clean up.
      this.iterator = iteratorOf(produced);
      this.closeIterator();
      return;
    }
    if (!isIterable(produced)) {
      const what = describeValue(produced);
      throw new Error(`the handler of stream operation ${JSON.stringify(op.name)} returned ${what}, not an iterable`);
    }
    const asyncFactory = (produced as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator];
    if (typeof asyncFactory === 'function') await this.pumpAsync(asyncFactory.call(produced), stream, op);
    else await this.pumpSync((produced as Iterable<unknown>)[Symbol.iterator](), stream, op);
    if (this.stopped) return;
    this.iterator = undefined;
    this.log('info', 'ok', 200);
    this.beforeLastByte(200, () => stream.finish(''));
  }

  private async pumpAsync(iterator: AsyncIterator<unknown>, stream: NdjsonStream, op: ResolvedOperation): Promise<void> {
    this.iterator = iterator;
    const output = op.output;
    let count = 0;
    for (;;) {
      if (stream.blocked !== undefined) await stream.blocked;
      if (this.stopped) return;
      const step = await iterator.next();
      if (this.stopped || step.done === true) return;
      if (output !== undefined) this.checkEvent(op, output, step.value, ++count);
      if (stream.push(step.value)) await nextTurn();
    }
  }

  private async pumpSync(iterator: Iterator<unknown>, stream: NdjsonStream, op: ResolvedOperation): Promise<void> {
    this.iterator = iterator;
    const output = op.output;
    let count = 0;
    for (;;) {
      if (stream.blocked !== undefined) await stream.blocked;
      if (this.stopped) return;
      // A sync generator produces its events in one tick: pull a batch, then write it at once.
      let step = iterator.next();
      if (output === undefined) {
        while (step.done !== true && !stream.push(step.value)) step = iterator.next();
      } else {
        while (step.done !== true) {
          this.checkEvent(op, output, step.value, ++count);
          if (stream.push(step.value)) break;
          step = iterator.next();
        }
      }
      if (step.done === true) return;
      // A full batch was written; give other requests and the disconnect event a turn.
      await nextTurn();
    }
  }

  /**
   * One streamed event against the declared output. On a mismatch the producer is stopped (its
   * signal aborted, its iterator closed) and the error thrown ends the stream: after the events
   * before it, as the last line, or as the whole answer when nothing was sent yet.
   */
  private checkEvent(op: ResolvedOperation, output: Validator, value: unknown, count: number): void {
    let failure: unknown;
    try {
      const issues = outputIssues(output, value, '(event)');
      if (issues === undefined) return;
      failure = invalidOutput(`operation ${JSON.stringify(op.name)} streamed event ${count}, which does not match its declared output: ${issues}`);
    } catch (error) {
      failure = error; // a validator (or the value's getters) threw
    }
    this.abort(failure instanceof Error ? failure : new Error('a streamed event failed its check'));
    this.closeIterator();
    throw failure;
  }

  private readBody(): void {
    const { req } = this;
    const limit = this.settings.bodyLimit;
    const declared = rawHeader(req.rawHeaders, 'content-length');
    if (declared !== undefined && Number(declared) > limit) {
      this.refuseBody(Number(declared));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.off('end', onEnd);
        this.refuseBody(size);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      const only = chunks.length === 1 ? chunks[0] : undefined;
      const text = only !== undefined ? only.toString('utf8') : Buffer.concat(chunks, size).toString('utf8');
      try {
        this.onBody(text);
      } catch (error) {
        this.fail(error);
      }
    };
    req.on('data', onData);
    req.on('end', onEnd);
    // The caller went away mid-body: nothing to answer; the response's `close` stops the rest.
    req.on('error', ignore);
  }

  /** 413 without reading the rest of the body: answer, then drop the connection. */
  private refuseBody(size: number): void {
    // Node would otherwise read and discard the rest of the body to reuse the connection.
    closeWithoutReading(this.req, this.res);
    const row = containerErrors.bodyTooLarge;
    this.reject(row, `request body of ${size} bytes or more exceeds the limit of ${this.settings.bodyLimit} bytes`);
  }

  private reject(row: ErrorRow, message: string): void {
    this.log(row.http >= 500 ? 'error' : 'info', message, row.http);
    this.send(row.http, errorBody(row.status, row.http, message));
  }

  private send(status: number, body: string): void {
    const span = this.span;
    // No closure on the hot path: only a traced call waits for its telemetry (beforeLastByte).
    if (span === undefined) this.write(status, body);
    else span.endThen(status, () => this.write(status, body));
  }

  private write(status: number, body: string): void {
    const { res } = this;
    if (res.headersSent || res.writableEnded) return;
    if (this.tracker.closing) res.setHeader('connection', 'close');
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
  private beforeLastByte(status: number, last: () => void): void {
    const span = this.span;
    if (span === undefined) last();
    else span.endThen(status, last);
  }

  /** A thrown handler error or a failed stream: a JSON error when nothing was sent, else a last line. */
  /** Never throws: it runs in `.catch` handlers, where a throw would be an unhandled rejection. */
  fail(error: unknown): void {
    try {
      this.failOrThrow(error);
    } catch {
      // Writing the error failed too (e.g. the socket broke): drop the connection.
      this.res.destroy();
    }
  }

  private failOrThrow(error: unknown): void {
    if (this.stopped) return;
    const { status, http, message, detail, errorId } = describeError(error, this.operation);
    // A deliberate 4xx is the caller's doing: no stack. Anything else is the server's: all of it.
    if (http < 500) this.log('info', detail, http);
    else {
      this.log('error', detail, http, error, errorId);
      this.span?.recordError(error, message);
    }
    const stream = this.stream;
    this.iterator = undefined;
    if (stream !== undefined && stream.hasOutput) {
      this.beforeLastByte(200, () => stream.finish(errorLine(status, http, message)));
      return;
    }
    stream?.stop();
    if (this.res.headersSent) {
      this.res.end();
      return;
    }
    this.send(http, errorBody(status, http, message));
  }

  /**
   * The trace a log entry links to: the server span's, else (no OpenTelemetry) the caller's
   * context from the headers, read only when there is a logger to write it.
   */
  private traceIds(): TraceIds | undefined {
    if (this.span !== undefined) return this.span.ids();
    const parent = readIncomingTrace(this.req.rawHeaders).parent;
    return parent === undefined ? undefined : { traceId: parent.traceId, spanId: parent.spanId, sampled: (parent.traceFlags & 1) === 1 };
  }

  private log(level: LogEntry['level'], message: string, status: number, error?: unknown, errorId?: string): void {
    const logger = this.settings.logger;
    if (logger === undefined) return;
    try {
      logger({
        level,
        message,
        method: this.req.method,
        path: this.req.url,
        operation: this.operation,
        status,
        durationMs: performance.now() - this.started,
        error,
        errorId,
        trace: this.traceIds(),
      });
    } catch {
      // A failing logger must not take a request down with it.
    }
  }
}

/**
 * Why a result or event fails its declared output, as one message naming the fields; undefined
 * when it passes. The value is checked as it is sent: `undefined` goes out as `null`. The parsed
 * copy is dropped: what is sent never depends on whether results are checked.
 */
function outputIssues(schema: Validator, value: unknown, root: string): string | undefined {
  const parsed = schema.safeParse(value === undefined ? null : value);
  return parsed.success ? undefined : describeIssues(parsed.error.issues, root);
}

/** A result that fails its declared output: 500 INTERNAL with this message, as it is. */
function invalidOutput(message: string): AgentError {
  return new AgentError('INTERNAL', message);
}

/**
 * The handler's context. A class with `signal` as a prototype getter: the AbortController is made
 * only when a handler reads it (an object literal with a getter per request measured ~9 us).
 */
class RequestContext implements HandlerContext {
  readonly engineId: string | undefined;
  readonly operation: string;
  readonly #exchange: Exchange;
  readonly #req: IncomingMessage;

  constructor(exchange: Exchange, req: IncomingMessage, engineId: string | undefined, operation: string) {
    this.#exchange = exchange;
    this.#req = req;
    this.engineId = engineId;
    this.operation = operation;
  }

  keepAlive(work: PromiseLike<unknown>): void {
    this.#exchange.keepAlive(work);
  }

  get signal(): AbortSignal {
    return this.#exchange.signal();
  }

  /** Node builds `req.headers` lazily; so does this, for handlers that never look. */
  get headers(): IncomingHttpHeaders {
    return this.#req.headers;
  }
}

function ignore(): void {}
