/**
 * agentgen container runtime: the two fixed routes of the container contract (section 4.2),
 * dispatch over the declared operations only, input validation, errors, and NDJSON streaming
 * with coalescing, backpressure and disconnect handling.
 *
 * This module is copied verbatim into every generated `server.ts`, so it imports only `zod`
 * (types) and `node:*`, and relies on nothing else in agentgen. The generated part after it
 * supplies the operation table and the typed handler interface.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { ZodType } from 'zod';

// ---------------------------------------------------------------------------------------------
// Contract constants. The runtime cannot import agentgen's spec/, so the few values it needs are
// repeated here; a unit test asserts they equal spec/api-modes.ts and spec/errors.ts.

/** Fixed container routes: unary (`""`, `"async"`) and streaming (`"stream"`, `"async_stream"`). */
export const containerRoutes = {
  unary: '/api/reasoning_engine',
  stream: '/api/stream_reasoning_engine',
} as const;

/** The error rows of the container routes: HTTP status and `google.rpc.Status` code name. */
export const containerErrors = {
  malformedJson: { http: 400, status: 'INVALID_ARGUMENT' },
  invalidEnvelope: { http: 400, status: 'INVALID_ARGUMENT' },
  invalidInput: { http: 400, status: 'INVALID_ARGUMENT' },
  wrongRoute: { http: 400, status: 'FAILED_PRECONDITION' },
  unknownOperation: { http: 404, status: 'NOT_FOUND' },
  unknownPath: { http: 404, status: 'NOT_FOUND' },
  methodNotAllowed: { http: 405, status: 'UNIMPLEMENTED' },
  bodyTooLarge: { http: 413, status: 'OUT_OF_RANGE' },
  unsupportedMediaType: { http: 415, status: 'INVALID_ARGUMENT' },
  handlerFailed: { http: 500, status: 'INTERNAL' },
} as const;

type ErrorRow = { readonly http: number; readonly status: string };

/** HTTP status of each `google.rpc.Status` code a handler may raise through `AgentError`. */
const rpcHttpStatus: Readonly<Record<string, number>> = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  ABORTED: 409,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  UNKNOWN: 500,
  INTERNAL: 500,
  DATA_LOSS: 500,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
};

export type RpcStatus =
  | 'INVALID_ARGUMENT'
  | 'FAILED_PRECONDITION'
  | 'OUT_OF_RANGE'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'ABORTED'
  | 'RESOURCE_EXHAUSTED'
  | 'CANCELLED'
  | 'UNKNOWN'
  | 'INTERNAL'
  | 'DATA_LOSS'
  | 'UNIMPLEMENTED'
  | 'UNAVAILABLE'
  | 'DEADLINE_EXCEEDED';

/**
 * Throw from a handler to answer with a specific error, e.g. `new AgentError('NOT_FOUND', 'no such
 * session')` → 404. Any other thrown value becomes 500 INTERNAL. Recognised by its `rpcStatus`
 * property, so a copy of this class from another generated folder works too.
 */
export class AgentError extends Error {
  readonly rpcStatus: RpcStatus;
  constructor(rpcStatus: RpcStatus, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AgentError';
    this.rpcStatus = rpcStatus;
  }
}

// ---------------------------------------------------------------------------------------------
// Public types.

export type OperationKind = 'unary' | 'stream';

/** One declared operation: its response kind and the zod schema of its `input`. */
export interface OperationSpec {
  readonly kind: OperationKind;
  readonly input: ZodType;
}

/** The declared operations by name. Dispatch goes through this map only. */
export type OperationTable = ReadonlyMap<string, OperationSpec>;

export interface HandlerContext {
  /** Aborted when the caller goes away or the server shuts down. */
  readonly signal: AbortSignal;
  readonly headers: IncomingHttpHeaders;
  /** From `GOOGLE_CLOUD_AGENT_ENGINE_ID`, else `PLATFORM_CLOUD_AGENT_ENGINE_ID`. */
  readonly engineId: string | undefined;
  readonly operation: string;
}

export type OperationHandler = (input: unknown, context: HandlerContext) => unknown;

/**
 * Handlers by operation name: a plain object or a class instance (methods on its prototype are
 * fine). Only names in the operation table are ever looked up, once, when the server is built.
 */
export type HandlerTable = { readonly [operation: string]: OperationHandler | undefined };

export interface LogEntry {
  readonly level: 'info' | 'error';
  readonly message: string;
  readonly method?: string;
  readonly path?: string;
  readonly operation?: string;
  readonly status?: number;
  readonly durationMs?: number;
  readonly error?: unknown;
}

export type AgentServerLogger = (entry: LogEntry) => void;

/** One line per entry on stderr; pass as `logger` to see requests and handler failures. */
export const stderrLogger: AgentServerLogger = (entry) => {
  const parts: string[] = [entry.level];
  if (entry.method !== undefined) parts.push(entry.method);
  if (entry.path !== undefined) parts.push(entry.path);
  if (entry.operation !== undefined) parts.push(entry.operation);
  if (entry.status !== undefined) parts.push(String(entry.status));
  if (entry.durationMs !== undefined) parts.push(`${entry.durationMs.toFixed(1)}ms`);
  parts.push(entry.message);
  if (entry.error instanceof Error && entry.error.stack !== undefined) parts.push(`\n${entry.error.stack}`);
  process.stderr.write(`${parts.join(' ')}\n`);
};

export interface AgentServerOptions {
  /** Port for `listen()`; default `$PORT`, else 8080. `0` picks a free port. */
  readonly port?: number;
  /** Host for `listen()`; default `0.0.0.0` as the contract requires. */
  readonly host?: string;
  /** Largest accepted request body in bytes; default 16 MiB. Larger bodies get 413 unread. */
  readonly bodyLimitBytes?: number;
  /** Default: silent. */
  readonly logger?: AgentServerLogger;
  /** Overrides the engine id read from the environment. */
  readonly engineId?: string;
}

export interface AgentServer {
  /** Starts listening; resolves with the bound address. */
  listen(): Promise<{ port: number; host: string }>;
  /** Stops accepting, ends in-flight streams with a last UNAVAILABLE error line, waits for the rest. */
  close(): Promise<void>;
  /** The bare request listener, to mount in another `node:http` server. */
  readonly listener: RequestListener;
  readonly server: Server;
}

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** A request listener plus what `close()` needs to end its in-flight work. */
export interface Dispatcher {
  readonly listener: RequestListener;
  /** Ends in-flight streams now and marks later responses `Connection: close`. */
  shutdown(): void;
  /** Resolves when no request is in flight. */
  idle(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Building the dispatcher.

const defaultBodyLimit = 16 * 1024 * 1024;
/** A stream writes at once when this much is pending, even within one tick. */
const streamBatchChars = 64 * 1024;

interface ResolvedOperation {
  readonly name: string;
  readonly kind: OperationKind;
  readonly input: ZodType;
  readonly handler: OperationHandler;
  readonly wrongRouteMessage: string;
}

interface Settings {
  readonly operations: ReadonlyMap<string, ResolvedOperation>;
  readonly handlers: HandlerTable;
  readonly bodyLimit: number;
  readonly logger: AgentServerLogger | undefined;
  readonly engineId: string | undefined;
  readonly unknownSuffix: string;
}

export function readEngineId(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const id = env['GOOGLE_CLOUD_AGENT_ENGINE_ID'] || env['PLATFORM_CLOUD_AGENT_ENGINE_ID'];
  return id === undefined || id === '' ? undefined : id;
}

function resolveOperations(table: OperationTable, handlers: HandlerTable): Map<string, ResolvedOperation> {
  const resolved = new Map<string, ResolvedOperation>();
  const missing: string[] = [];
  for (const [name, spec] of table) {
    // Looked up once, by declared name only; a method inherited from Object.prototype is no handler.
    const handler = handlers[name];
    const inherited = (Object.prototype as unknown as Record<string, unknown>)[name];
    if (typeof handler !== 'function' || handler === inherited) {
      missing.push(name);
      continue;
    }
    const route = spec.kind === 'stream' ? containerRoutes.stream : containerRoutes.unary;
    const what = spec.kind === 'stream' ? 'a streaming operation' : 'a unary operation';
    resolved.set(name, {
      name,
      kind: spec.kind,
      input: spec.input,
      handler,
      wrongRouteMessage: `operation ${JSON.stringify(name)} is ${what}: call it on ${route}`,
    });
  }
  if (missing.length > 0) {
    throw new TypeError(`agent server: no handler function for declared operation(s): ${missing.join(', ')}`);
  }
  return resolved;
}

export function createDispatcher(
  table: OperationTable,
  handlers: HandlerTable,
  options: AgentServerOptions = {},
): Dispatcher {
  const limit = options.bodyLimitBytes ?? defaultBodyLimit;
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new RangeError(`agent server: bodyLimitBytes must be a non-negative integer, got ${String(limit)}`);
  }
  const operations = resolveOperations(table, handlers);
  const declared = [...operations.keys()].sort();
  const settings: Settings = {
    operations,
    handlers,
    bodyLimit: limit,
    logger: options.logger,
    engineId: options.engineId ?? readEngineId(),
    unknownSuffix:
      declared.length > 0 ? `; declared operations: ${declared.join(', ')}` : '; no operations are declared',
  };
  const tracker = new Tracker();
  const listener: RequestListener = (req, res) => {
    // Tell keep-alive clients to reconnect elsewhere once shutdown has begun.
    if (tracker.closing) res.setHeader('connection', 'close');
    const exchange = new Exchange(req, res, settings, tracker);
    try {
      exchange.start();
    } catch (error) {
      exchange.fail(error);
    }
  };

  return {
    listener,
    shutdown(): void {
      tracker.closing = true;
      for (const exchange of tracker.inFlight) exchange.shutdown();
    },
    idle(): Promise<void> {
      return tracker.idle();
    },
  };
}

export function createListener(
  table: OperationTable,
  handlers: HandlerTable,
  options?: AgentServerOptions,
): RequestListener {
  return createDispatcher(table, handlers, options).listener;
}

export function createContainer(
  table: OperationTable,
  handlers: HandlerTable,
  options: AgentServerOptions = {},
): AgentServer {
  const dispatcher = createDispatcher(table, handlers, options);
  const server = createServer(dispatcher.listener);
  let closed: Promise<void> | undefined;
  return {
    listener: dispatcher.listener,
    server,
    listen() {
      return new Promise((resolve, reject) => {
        const port = options.port ?? portFromEnv();
        const host = options.host ?? '0.0.0.0';
        const onError = (error: Error): void => reject(error);
        server.once('error', onError);
        server.listen(port, host, () => {
          server.off('error', onError);
          const address = server.address();
          const bound = typeof address === 'object' && address !== null ? address.port : port;
          resolve({ port: bound, host });
        });
      });
    },
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        if (!server.listening) {
          dispatcher.shutdown();
          resolve();
          return;
        }
        server.close((error) => (error ? reject(error) : resolve()));
        dispatcher.shutdown();
        server.closeIdleConnections();
        // Unary requests still running finish with `Connection: close`; then idle sockets go.
        void dispatcher.idle().then(() => server.closeIdleConnections());
      });
      return closed;
    },
  };
}

function portFromEnv(): number {
  const raw = process.env['PORT'];
  if (raw === undefined || raw === '') return 8080;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`agent server: $PORT must be an integer from 0 to 65535, got ${JSON.stringify(raw)}`);
  }
  return port;
}

// ---------------------------------------------------------------------------------------------
// One request/response exchange.

/**
 * The exchanges whose work outlives the tick their body arrived in (streams, async handlers):
 * those a disconnect must stop and a shutdown must end. A sync handler answers in that very
 * tick, so it is never tracked (measured: tracking every request cost ~2 us of ~20).
 */
class Tracker {
  readonly inFlight = new Set<Exchange>();
  closing = false;
  private waiters: Array<() => void> = [];

  add(exchange: Exchange): void {
    this.inFlight.add(exchange);
  }

  finished(exchange: Exchange): void {
    this.inFlight.delete(exchange);
    if (this.inFlight.size > 0 || this.waiters.length === 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  idle(): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

const jsonType = 'application/json';
const streamHeaders = { 'content-type': jsonType } as const;

class Exchange {
  private readonly started: number;
  /** Made on first use of `context.signal`: most handlers never look, and it costs per request. */
  private controller: AbortController | undefined;
  private abortReason: Error | undefined;
  private operation: string | undefined;
  private stream: NdjsonStream | undefined;
  private kind: OperationKind = 'unary';
  private iterator: { return?: (value?: unknown) => unknown } | undefined;
  private stopped = false;
  private watched = false;

  constructor(
    private readonly req: IncomingMessage,
    readonly res: ServerResponse,
    private readonly settings: Settings,
    private readonly tracker: Tracker,
  ) {
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
      if (isThenable(result)) result.then(undefined, () => undefined);
    } catch {
      // A generator that is still running or that throws from `finally` has nothing more to give.
    }
  }

  /** Server shutdown: streams end now with a last error line; unary work is left to finish. */
  shutdown(): void {
    const stream = this.stream;
    if (stream === undefined) {
      // Unary work finishes, and the caller is told not to reuse the connection.
      if (!this.res.headersSent) this.res.setHeader('connection', 'close');
      return;
    }
    if (this.stopped) return;
    this.stopped = true;
    this.abort(new Error('the server is shutting down'));
    this.closeIterator();
    stream.finish(errorLine('UNAVAILABLE', 503, 'the server is shutting down'));
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
    const kind: OperationKind | undefined =
      path === containerRoutes.unary ? 'unary' : path === containerRoutes.stream ? 'stream' : undefined;
    if (kind === undefined) {
      const served = `POST ${containerRoutes.unary} and POST ${containerRoutes.stream}`;
      return this.reject(containerErrors.unknownPath, `no route ${JSON.stringify(clip(path))}; the container serves ${served}`);
    }
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      const message = `method ${req.method ?? ''} is not allowed on ${path}: use POST`;
      return this.reject(containerErrors.methodNotAllowed, message);
    }
    const mediaError = checkContentType(rawHeader(req.rawHeaders, 'content-type'));
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
    if (op.kind !== kind) return this.reject(containerErrors.wrongRoute, op.wrongRouteMessage);

    const parsed = op.input.safeParse(envelope.input);
    if (!parsed.success) {
      const message = `invalid input for ${JSON.stringify(op.name)}: ${describeIssues(parsed.error.issues)}`;
      return this.reject(containerErrors.invalidInput, message);
    }
    const context = new RequestContext(this, req, this.settings.engineId, op.name);
    if (op.kind === 'stream') {
      this.runStream(op, parsed.data, context).catch((error: unknown) => this.fail(error));
      return;
    }
    let result: unknown;
    try {
      result = op.handler.call(this.settings.handlers, parsed.data, context);
    } catch (error) {
      this.fail(error);
      return;
    }
    if (isThenable(result)) {
      this.watch();
      result.then(
        (value) => this.reply(value),
        (error: unknown) => this.fail(error),
      );
    } else {
      this.reply(result);
    }
  }

  private reply(result: unknown): void {
    if (this.stopped) return;
    let body: string;
    try {
      // `{"output": null}` for a handler that returns nothing (JSON.stringify(undefined) is undefined).
      body = `{"output":${JSON.stringify(result) ?? 'null'}}`;
    } catch (error) {
      this.fail(error);
      return;
    }
    this.send(200, body);
    this.log('info', 'ok', 200);
  }

  private async runStream(op: ResolvedOperation, input: unknown, context: HandlerContext): Promise<void> {
    this.watch();
    let produced = op.handler.call(this.settings.handlers, input, context);
    // The stream is accepted: headers go out at the end of this tick even if no event is ready.
    const stream = new NdjsonStream(this.res);
    this.stream = stream;
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
    if (typeof asyncFactory === 'function') await this.pumpAsync(asyncFactory.call(produced), stream);
    else await this.pumpSync((produced as Iterable<unknown>)[Symbol.iterator](), stream);
    if (this.stopped) return;
    this.iterator = undefined;
    stream.finish('');
    this.log('info', 'ok', 200);
  }

  private async pumpAsync(iterator: AsyncIterator<unknown>, stream: NdjsonStream): Promise<void> {
    this.iterator = iterator;
    for (;;) {
      if (stream.blocked !== undefined) await stream.blocked;
      if (this.stopped) return;
      const step = await iterator.next();
      if (this.stopped || step.done === true) return;
      if (stream.push(step.value)) await nextTurn();
    }
  }

  private async pumpSync(iterator: Iterator<unknown>, stream: NdjsonStream): Promise<void> {
    this.iterator = iterator;
    for (;;) {
      if (stream.blocked !== undefined) await stream.blocked;
      if (this.stopped) return;
      // A sync generator produces its events in one tick: pull a batch, then write it at once.
      let step = iterator.next();
      while (step.done !== true && !stream.push(step.value)) step = iterator.next();
      if (step.done === true) return;
      // A full batch was written; give other requests and the disconnect event a turn.
      await nextTurn();
    }
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
    req.on('error', noop);
  }

  /** 413 without reading the rest of the body: answer, then drop the connection. */
  private refuseBody(size: number): void {
    const { req, res } = this;
    req.pause();
    res.setHeader('connection', 'close');
    const row = containerErrors.bodyTooLarge;
    this.reject(row, `request body of ${size} bytes or more exceeds the limit of ${this.settings.bodyLimit} bytes`);
    // Node would otherwise read and discard the rest of the body to reuse the connection.
    res.once('finish', () => req.socket.destroySoon());
  }

  private reject(row: ErrorRow, message: string): void {
    this.send(row.http, errorBody(row.status, row.http, message));
    this.log(row.http >= 500 ? 'error' : 'info', message, row.http);
  }

  private send(status: number, body: string): void {
    const { res } = this;
    if (res.headersSent || res.writableEnded) return;
    if (this.tracker.closing) res.setHeader('connection', 'close');
    res.writeHead(status, { 'content-type': jsonType, 'content-length': Buffer.byteLength(body) });
    res.end(body);
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
    const { status, http, message } = describeError(error, this.operation);
    this.log('error', message, http, error);
    const stream = this.stream;
    this.iterator = undefined;
    if (stream !== undefined && stream.hasOutput) {
      stream.finish(errorLine(status, http, message));
      return;
    }
    stream?.stop();
    if (this.res.headersSent) {
      this.res.end();
      return;
    }
    this.send(http, errorBody(status, http, message));
  }

  private log(level: LogEntry['level'], message: string, status: number, error?: unknown): void {
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
      });
    } catch {
      // A failing logger must not take a request down with it.
    }
  }
}

/**
 * The handler's context. A class with `signal` as a prototype getter: the AbortController is made
 * only when a handler reads it (an object literal with a getter per request measured ~9 us).
 */
class RequestContext implements HandlerContext {
  readonly #exchange: Exchange;
  readonly #req: IncomingMessage;
  constructor(
    exchange: Exchange,
    req: IncomingMessage,
    readonly engineId: string | undefined,
    readonly operation: string,
  ) {
    this.#exchange = exchange;
    this.#req = req;
  }

  get signal(): AbortSignal {
    return this.#exchange.signal();
  }

  /** Node builds `req.headers` lazily; so does this, for handlers that never look. */
  get headers(): IncomingHttpHeaders {
    return this.#req.headers;
  }
}

/** The first value of a header from `rawHeaders` (name matched case-insensitively). */
function rawHeader(raw: readonly string[], name: string): string | undefined {
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i];
    if (key !== undefined && key.length === name.length && key.toLowerCase() === name) return raw[i + 1];
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// NDJSON output: one JSON line per event, events of one tick in one write, backpressure.

class NdjsonStream {
  private pending = '';
  private scheduled = false;
  private stopped = false;
  /** True once the status line went out (headers or data). */
  started = false;
  /** Set while the socket buffer is full; the producer waits on it. */
  blocked: Promise<void> | undefined;
  private unblock: (() => void) | undefined;

  constructor(private readonly res: ServerResponse) {
    this.schedule();
  }

  /** True once anything was sent or queued: an error then has to be the last line. */
  get hasOutput(): boolean {
    return this.started || this.pending !== '';
  }

  /** Queues one event; returns true when a full batch was written and the producer should yield. */
  push(value: unknown): boolean {
    this.pending += `${JSON.stringify(value) ?? 'null'}\n`;
    if (this.pending.length >= streamBatchChars) {
      this.flush();
      return true;
    }
    this.schedule();
    return false;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.onTurnEnd);
  }

  private readonly onTurnEnd = (): void => {
    this.scheduled = false;
    this.flush();
  };

  private flush(): void {
    const { res } = this;
    if (this.stopped || res.writableEnded) return;
    if (!res.headersSent) res.writeHead(200, streamHeaders);
    this.started = true;
    if (this.pending === '') {
      // Nothing produced yet: send the headers now (Node would hold them until the first write).
      res.flushHeaders();
      return;
    }
    const chunk = this.pending;
    this.pending = '';
    if (!res.write(chunk) && this.blocked === undefined) {
      this.blocked = new Promise((resolve) => {
        this.unblock = resolve;
      });
      res.once('drain', this.release);
    }
  }

  private readonly release = (): void => {
    this.res.off('drain', this.release);
    const unblock = this.unblock;
    this.blocked = undefined;
    this.unblock = undefined;
    unblock?.();
  };

  /** Writes what is pending plus `last`, and ends the response. */
  finish(last: string): void {
    const { res } = this;
    if (this.stopped || res.writableEnded) return;
    this.stopped = true;
    if (!res.headersSent) res.writeHead(200, streamHeaders);
    this.started = true;
    res.end(this.pending + last);
    this.pending = '';
    this.release();
  }

  /** The caller left: drop what is pending and wake a producer waiting for `drain`. */
  stop(): void {
    this.stopped = true;
    this.pending = '';
    this.release();
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers.

type Envelope = { readonly name: string; readonly input: unknown } | { readonly error: string; readonly row: ErrorRow };

/** Section 4.2: decode once, and once more if that gave a string; then read the envelope. */
export function parseEnvelope(text: string): Envelope {
  let body: unknown;
  try {
    body = JSON.parse(text);
    if (typeof body === 'string') body = JSON.parse(body);
  } catch (error) {
    const reason = (error as Error).message;
    return { row: containerErrors.malformedJson, error: `the request body is not valid JSON: ${reason}` };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      row: containerErrors.invalidEnvelope,
      error: `the request body must be a JSON object {"class_method": string, "input": object}, got ${describeValue(body)}`,
    };
  }
  const record = body as Record<string, unknown>;
  // The runtime sends `class_method`; `classMethod` is accepted too, as the public API does.
  const name = Object.hasOwn(record, 'class_method') ? record['class_method'] : record['classMethod'];
  if (typeof name !== 'string') {
    return {
      row: containerErrors.invalidEnvelope,
      error:
        name === undefined
          ? 'the request body has no "class_method"'
          : `"class_method" must be a string, got ${describeValue(name)}`,
    };
  }
  // Absent (or null) input means no keyword arguments.
  const input = record['input'] ?? {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    return { row: containerErrors.invalidEnvelope, error: `"input" must be a JSON object, got ${describeValue(input)}` };
  }
  return { name, input };
}

/** Accepts `application/json` (with parameters) and `+json` types; a missing header is accepted. */
export function checkContentType(header: string | undefined): string | undefined {
  if (header === undefined || header === '' || header === jsonType) return undefined;
  const semicolon = header.indexOf(';');
  const type = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  if (type === jsonType || (type.startsWith('application/') && type.endsWith('+json'))) return undefined;
  return `content type ${JSON.stringify(clip(header))} is not supported: send application/json`;
}

function describeIssues(issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>): string {
  const shown = issues.slice(0, 5).map((issue) => {
    const where = issue.path.length === 0 ? '(input)' : issue.path.map(String).join('.');
    return `${where}: ${issue.message}`;
  });
  if (issues.length > shown.length) shown.push(`and ${issues.length - shown.length} more`);
  return shown.join('; ');
}

function describeError(error: unknown, operation: string | undefined): { status: string; http: number; message: string } {
  let rpc: unknown;
  let text: string;
  try {
    rpc = typeof error === 'object' && error !== null ? (error as { rpcStatus?: unknown }).rpcStatus : undefined;
    text = error instanceof Error ? String(error.message) : String(error);
  } catch {
    // A thrown value whose getters or toString throw: say so rather than fail again.
    rpc = undefined;
    text = 'a value that cannot be described';
  }
  if (typeof rpc === 'string' && Object.hasOwn(rpcHttpStatus, rpc)) {
    return { status: rpc, http: rpcHttpStatus[rpc] ?? 500, message: text };
  }
  const row = containerErrors.handlerFailed;
  const where = operation === undefined ? 'the request' : `operation ${JSON.stringify(operation)}`;
  return { status: row.status, http: row.http, message: `${where} failed: ${text}` };
}

function errorBody(status: string, code: number, message: string): string {
  return JSON.stringify({ error: { code, message, status } });
}

function errorLine(status: string, code: number, message: string): string {
  return `${errorBody(status, code, message)}\n`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function clip(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function isIterable(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Iterable<unknown> & AsyncIterable<unknown>>;
  return typeof candidate[Symbol.asyncIterator] === 'function' || typeof candidate[Symbol.iterator] === 'function';
}

function iteratorOf(value: unknown): { return?: (value?: unknown) => unknown } | undefined {
  if (!isIterable(value)) return undefined;
  const candidate = value as Partial<Iterable<unknown> & AsyncIterable<unknown>>;
  const factory = (candidate[Symbol.asyncIterator] ?? candidate[Symbol.iterator]) as (this: unknown) => unknown;
  try {
    return factory.call(value) as { return?: (value?: unknown) => unknown };
  } catch {
    return undefined;
  }
}

function noop(): void {}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
