/**
 * A gRPC server on node:http2, for the calls the face serves: one request message, then any
 * number of response messages (unary and server streaming), in identity encoding
 * (grpc/grpc doc/PROTOCOL-HTTP2.md). It frames messages, reads `grpc-timeout` (the deadline ends
 * the call with DEADLINE_EXCEEDED and aborts the handler's signal), turns the caller's RST_STREAM
 * into the same abort, refuses a request over the receive limit as soon as its length prefix
 * arrives, answers an unknown method UNIMPLEMENTED, and ends each call with `grpc-status` /
 * `grpc-message` trailers (or Trailers-Only when nothing was sent yet). Encoding messages is the
 * caller's: it writes bytes.
 */
import {
  constants,
  createServer,
  type Http2Server,
  type Http2Session,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  type ServerHttp2Stream,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import { type GrpcStatus, grpcStatus } from '../../proto/status-codes.js';
import { FramingError, frame, MessageReader } from './framing.js';
import { firstHeader, metadataHeaders, parseTimeout, percentEncode } from './headers.js';

/** Why a call stopped before it ended: the caller cancelled, its deadline passed, or the server closed. */
export type StopReason = 'cancelled' | 'deadline' | 'shutdown';

export interface ServerCall<Request> {
  readonly path: string;
  readonly request: Request;
  /** A request header (metadata) by its lower-case name: its first value. */
  header(name: string): string | undefined;
  /** Aborts when the call stops before it ended (see `stopped`). */
  readonly signal: AbortSignal;
  readonly stopped: StopReason | undefined;
  /** Sends the response headers now, before any message (a no-op once sent). */
  sendHeaders(): void;
  /** Sends one encoded message; false when the stream's buffer is full (wait for `onceDrained`). */
  write(message: Uint8Array): boolean;
  onceDrained(resume: () => void): void;
  /** Ends the call with `status` (OK by default); later calls are no-ops. */
  end(status?: GrpcStatus): void;
  /** Ended, stopped, or its stream gone: writing is pointless. */
  readonly gone: boolean;
}

export interface GrpcMethod<Request> {
  /** `/package.Service/Method`. */
  readonly path: string;
  /** The request message from its bytes. */
  decode(bytes: Buffer): Request;
  handle(call: ServerCall<Request>): void | Promise<void>;
}

export interface GrpcServerOptions {
  /** The largest request message accepted, in bytes; a larger one is RESOURCE_EXHAUSTED. */
  readonly maxReceiveMessageLength: number;
  readonly methods: readonly GrpcMethod<unknown>[];
  /** A connection with nothing sent either way for this long is closed (GOAWAY; its calls, if any, finish first). Default 60 s. */
  readonly idleTimeoutMs?: number;
  /** Calls at once on one connection (SETTINGS_MAX_CONCURRENT_STREAMS; a client queues past it). Default 100. */
  readonly maxConcurrentStreams?: number;
  /** Connections at once; past it a new one is closed as it opens. Default 100. */
  readonly maxConnections?: number;
  /** Bytes of requests still being received, all calls together; past it a call is RESOURCE_EXHAUSTED. Default 128 MiB. */
  readonly maxReceivingBytes?: number;
  /** Time to receive a call's whole request; past it the call is DEADLINE_EXCEEDED, as REST's 408. Default 300 s. */
  readonly requestTimeoutMs?: number;
}

/**
 * The bounds the REST face has in node:http's keep-alive timeout, and that a gRPC port needs too:
 * 400 idle connections were held for good, and under a 256-file limit they left the REST face
 * unable to accept; streams on one connection were not capped.
 */
export const grpcServerBounds = {
  idleTimeoutMs: 60_000,
  maxConcurrentStreams: 100,
  maxConnections: 100,
  // 16 unfinished uploads of 15 MiB held 14.6 MB each, for as long as their callers liked.
  maxReceivingBytes: 128 * 1024 * 1024,
  requestTimeoutMs: 300_000,
} as const;

/** The bytes of requests being received, shared by every call of one server. */
interface ReceiveBudget {
  take(bytes: number): boolean;
  give(bytes: number): void;
  readonly max: number;
  readonly requestTimeoutMs: number;
}

export interface GrpcServer {
  /** Listens on `host:port` (0: a free port); resolves the port, rejects with listen's error. */
  listen(port: number, host: string): Promise<number>;
  /**
   * Stops listening and ends every call in flight with `status` (default UNAVAILABLE), whose
   * handlers' signals abort with reason `shutdown`; connections close once those trailers are out,
   * or are cut after `graceMs` (default 500).
   */
  close(status?: GrpcStatus, graceMs?: number): Promise<void>;
}

const responseHeaders: OutgoingHttpHeaders = {
  [constants.HTTP2_HEADER_STATUS]: 200,
  [constants.HTTP2_HEADER_CONTENT_TYPE]: 'application/grpc+proto',
  'grpc-accept-encoding': 'identity',
  'grpc-encoding': 'identity',
};

/** setTimeout's longest delay; a deadline further out never fires during a dev session. */
const longestTimer = 2 ** 31 - 1;

class Call<Request> implements ServerCall<Request> {
  request!: Request;
  stopped: StopReason | undefined;
  readonly #controller = new AbortController();
  #headersSent = false;
  #ended = false;
  #trailers: OutgoingHttpHeaders = {};
  #deadline: NodeJS.Timeout | undefined;

  readonly #headers: IncomingHttpHeaders;
  readonly #stream: ServerHttp2Stream;
  constructor(
    stream: ServerHttp2Stream,
    headers: IncomingHttpHeaders,
    readonly path: string,
  ) {
    this.#stream = stream;
    this.#headers = headers;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get finished(): boolean {
    return this.#ended;
  }

  get gone(): boolean {
    return this.#ended || this.#stream.destroyed || this.#stream.closed;
  }

  header(name: string): string | undefined {
    return firstHeader(this.#headers, name);
  }

  sendHeaders(): void {
    if (this.#headersSent || this.gone) return;
    this.#headersSent = true;
    this.#stream.respond(responseHeaders, { waitForTrailers: true });
    this.#stream.once('wantTrailers', () => this.#stream.sendTrailers(this.#trailers));
  }

  write(message: Uint8Array): boolean {
    if (this.gone) return false;
    this.sendHeaders();
    return this.#stream.write(frame(message));
  }

  onceDrained(resume: () => void): void {
    this.#stream.once('drain', resume);
  }

  end(status: GrpcStatus = { code: grpcStatus.OK, message: '' }): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#deadline);
    if (this.#stream.destroyed || this.#stream.closed) return;
    const trailers: OutgoingHttpHeaders = { 'grpc-status': String(status.code), ...metadataHeaders(status.trailers) };
    if (status.message !== '') trailers['grpc-message'] = percentEncode(status.message);
    if (this.#headersSent) {
      this.#trailers = trailers;
      this.#stream.end();
    } else {
      // Trailers-Only: one HEADERS frame with the status, nothing sent before it.
      this.#stream.respond({ ...responseHeaders, ...trailers }, { endStream: true });
    }
    // What is left of the request (a refused oversize message) is read and dropped.
    this.#stream.resume();
  }

  /** The deadline: DEADLINE_EXCEEDED after `ms`, and the handler's signal aborted. */
  expireIn(ms: number): void {
    if (ms > longestTimer) return;
    this.#deadline = setTimeout(() => {
      this.end({ code: grpcStatus.DEADLINE_EXCEEDED, message: 'Deadline exceeded' });
      this.#stop('deadline');
    }, ms);
  }

  /**
   * The server is closing: the call ends with `status` as a caller can read it (UNAVAILABLE, which
   * Google's clients retry; a reset stream reads as CANCELLED, which they do not), and its handler
   * stops.
   */
  shutDown(status: GrpcStatus): void {
    this.end(status);
    this.#stop('shutdown');
  }

  /** The stream closed: a call not ended by then was cancelled (or the server shut down). */
  closed(reason: StopReason): void {
    clearTimeout(this.#deadline);
    if (!this.#ended) this.#stop(reason);
    this.#ended = true;
  }

  #stop(reason: StopReason): void {
    if (this.stopped !== undefined) return;
    this.stopped = reason;
    this.#controller.abort(reason);
  }
}

/** `application/grpc`, `application/grpc+proto`, with parameters or not; not grpc-web, not +json. */
const isGrpcContentType = (value: string | undefined): boolean => value !== undefined && /^application\/grpc(\+proto)?(\s*;|$)/i.test(value);

/** What the server's listeners share: whether it is closing, with what status, and what is open. */
interface ServerState {
  closing: boolean;
  shutdownStatus: GrpcStatus;
  readonly sessions: Set<Http2Session>;
  /** Calls whose stream is open: ended at shutdown with a status (see close). */
  readonly calls: Set<Call<unknown>>;
}

/** The bytes of requests being received, bounded across calls. */
function receiveBudget(options: GrpcServerOptions): ReceiveBudget {
  let receiving = 0;
  return {
    max: options.maxReceivingBytes ?? grpcServerBounds.maxReceivingBytes,
    requestTimeoutMs: options.requestTimeoutMs ?? grpcServerBounds.requestTimeoutMs,
    take(bytes) {
      if (receiving + bytes > this.max) return false;
      receiving += bytes;
      return true;
    },
    give(bytes) {
      receiving -= bytes;
    },
  };
}

/** A connection: kept until it closes; after `idleTimeoutMs` without a frame either way, GOAWAY. */
function watchSession(session: Http2Session, state: ServerState, idleTimeoutMs: number): void {
  state.sessions.add(session);
  session.on('error', () => {}); // a broken connection: its streams close, and their calls stop
  session.once('close', () => state.sessions.delete(session));
  // No frame either way for idleTimeoutMs: GOAWAY, and the connection closes once its calls (if any) have ended.
  session.setTimeout(idleTimeoutMs, () => session.close());
}

/** A stream: refused when it is no gRPC call, else a call of its method (UNIMPLEMENTED when unknown) whose request is read. */
function acceptStream(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  state: ServerState,
  methods: ReadonlyMap<string, GrpcMethod<unknown>>,
  options: GrpcServerOptions,
  budget: ReceiveBudget,
): void {
  // A reset stream reports an error here too; its 'close' is what stops the call.
  stream.on('error', () => {});
  if (headers[constants.HTTP2_HEADER_METHOD] !== 'POST') {
    stream.respond({ [constants.HTTP2_HEADER_STATUS]: 405, allow: 'POST' }, { endStream: true });
    return;
  }
  if (!isGrpcContentType(firstHeader(headers, constants.HTTP2_HEADER_CONTENT_TYPE))) {
    stream.respond({ [constants.HTTP2_HEADER_STATUS]: 415 }, { endStream: true });
    return;
  }
  const path = firstHeader(headers, constants.HTTP2_HEADER_PATH) ?? '';
  const call = new Call<unknown>(stream, headers, path);
  state.calls.add(call);
  stream.once('close', () => {
    state.calls.delete(call);
    call.closed(state.closing ? 'shutdown' : 'cancelled');
  });
  if (state.closing) return call.shutDown(state.shutdownStatus);
  const method = methods.get(path);
  if (method === undefined) {
    // grpc-js's words, then where the docs say what is served (issue 47: every unserved call says so).
    const message = `The server does not implement the method ${path}: agentgen dev does not serve it; see "What agentgen dev does not serve" in agentgen's docs/dev.md`;
    return call.end({ code: grpcStatus.UNIMPLEMENTED, message });
  }
  const timeout = firstHeader(headers, 'grpc-timeout');
  if (timeout !== undefined) {
    const ms = parseTimeout(timeout);
    // grpc-js's words; the value is quoted only when it is short and printable (a header is the caller's data).
    const shown = /^[\x20-\x7e]{0,16}$/.test(timeout) && !timeout.includes('"') ? ` "${timeout}"` : '';
    if (ms === undefined) return call.end({ code: grpcStatus.INTERNAL, message: `Invalid grpc-timeout value${shown}` });
    call.expireIn(ms);
  }
  readRequest(stream, call, method, new MessageReader(options.maxReceiveMessageLength, firstHeader(headers, 'grpc-encoding')), budget);
}

/** Stops listening and ends every call in flight with `status`; connections are cut after `graceMs`. */
async function closeServer(server: Http2Server, state: ServerState, status: GrpcStatus, graceMs: number): Promise<void> {
  state.closing = true;
  state.shutdownStatus = status;
  if (server.listening) server.close();
  // Every call in flight gets its status in trailers, as the REST face answers its calls 503;
  // then each connection says GOAWAY and closes when its streams have, or is cut after graceMs.
  for (const call of state.calls) call.shutDown(status);
  const open = [...state.sessions].map((session) => new Promise<void>((resolve) => (session.closed ? resolve() : session.close(() => resolve()))));
  let cut: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => (cut = setTimeout(() => resolve(true), graceMs)));
  if (await Promise.race([Promise.all(open).then(() => false), timedOut])) {
    for (const session of state.sessions) session.destroy(undefined, constants.NGHTTP2_CANCEL);
  }
  clearTimeout(cut);
}

export function createGrpcServer(options: GrpcServerOptions): GrpcServer {
  const methods = new Map(options.methods.map((method) => [method.path, method]));
  // As grpc-js sets them: node's default session memory cap (10 MB) makes it refuse new streams
  // with ENHANCE_YOUR_CALM under large messages, and long error messages exceed the default
  // header block size. Memory stays bounded by the receive limit and by backpressure on writes.
  const server = createServer({
    maxSessionMemory: Number.MAX_SAFE_INTEGER,
    maxSendHeaderBlockLength: Number.MAX_SAFE_INTEGER,
    settings: { maxConcurrentStreams: options.maxConcurrentStreams ?? grpcServerBounds.maxConcurrentStreams },
  });
  server.maxConnections = options.maxConnections ?? grpcServerBounds.maxConnections;
  const idleTimeoutMs = options.idleTimeoutMs ?? grpcServerBounds.idleTimeoutMs;
  const budget = receiveBudget(options);
  const state: ServerState = {
    closing: false,
    shutdownStatus: { code: grpcStatus.UNAVAILABLE, message: 'The server is shutting down' },
    sessions: new Set(),
    calls: new Set(),
  };
  server.on('session', (session) => watchSession(session, state, idleTimeoutMs));
  server.on('stream', (stream, headers) => acceptStream(stream, headers, state, methods, options, budget));

  return {
    listen: (port, host) =>
      new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve((server.address() as AddressInfo).port);
        });
      }),
    close: (status = state.shutdownStatus, graceMs = 500) => closeServer(server, state, status, graceMs),
  };
}

/** Reads the one request message; at the request's end, decodes it and runs the handler. */
function readRequest(stream: ServerHttp2Stream, call: Call<unknown>, method: GrpcMethod<unknown>, reader: MessageReader, budget: ReceiveBudget): void {
  let message: Buffer | undefined;
  // What this call holds of the server's receive budget, until its request is in (or it ends).
  let held = 0;
  const release = (): void => {
    clearTimeout(timer);
    budget.give(held);
    held = 0;
  };
  const timer = setTimeout(() => {
    release();
    call.end({ code: grpcStatus.DEADLINE_EXCEEDED, message: `The request was not received within ${budget.requestTimeoutMs} ms` });
  }, budget.requestTimeoutMs);
  stream.once('close', release);
  stream.on('data', (chunk: Buffer) => {
    if (call.finished) return;
    if (!budget.take(chunk.length)) {
      release();
      return call.end({
        code: grpcStatus.RESOURCE_EXHAUSTED,
        message: `agentgen dev is receiving ${budget.max} bytes of requests already: send this call again once those are in`,
      });
    }
    held += chunk.length;
    try {
      for (const received of reader.push(chunk)) {
        if (message !== undefined) {
          return call.end({ code: grpcStatus.UNIMPLEMENTED, message: `Received a second request message for method ${call.path}` });
        }
        message = received;
      }
    } catch (error) {
      if (!(error instanceof FramingError)) throw error;
      call.end(error.status);
    }
  });
  stream.once('end', () => {
    release();
    if (call.finished) return;
    if (reader.partial) return call.end({ code: grpcStatus.INTERNAL, message: 'The request ended inside a message' });
    if (message === undefined) return call.end({ code: grpcStatus.UNIMPLEMENTED, message: `Received no request message for method ${call.path}` });
    try {
      call.request = method.decode(message);
      void Promise.resolve(method.handle(call)).catch((error: unknown) => call.end(handlerFailure(error)));
    } catch (error) {
      call.end(handlerFailure(error));
    }
  });
}

/** What a handler that threw (a bug: the face answers its own errors) ends the call with. */
function handlerFailure(error: unknown): GrpcStatus {
  return { code: grpcStatus.UNKNOWN, message: `The gRPC handler failed: ${(error as Error)?.message ?? String(error)}` };
}
