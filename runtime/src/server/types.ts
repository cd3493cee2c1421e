/** The server runtime's public types: the operation table, handlers, their context, options. */
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { ResponseKind, Validator } from '../contract.js';
import type { AgentServerLogger } from './logger.js';

/**
 * One declared operation as the server dispatches it: its response kind, the validator (a zod
 * schema) of its `input`, and the validator of its result (unary) or of each event (stream), which the server
 * checks when `validateResults` is on. No `output` (an operation whose result is any JSON, or a
 * table generated before it existed): nothing is checked.
 */
export interface ServerOperation {
  readonly kind: ResponseKind;
  /** The declared `api_mode` (`""`, `async`, `stream`, `async_stream`), recorded on the call's span. */
  readonly apiMode?: string;
  readonly input: Validator;
  readonly output?: Validator;
}

/** The declared operations by name. Dispatch goes through this map only. */
export type ServerOperationTable = ReadonlyMap<string, ServerOperation>;

/** What a streaming handler may return: a sync or async iterable of events, or a promise of one. */
export type StreamOf<E> = Iterable<E> | AsyncIterable<E> | Promise<Iterable<E> | AsyncIterable<E>>;

export interface HandlerContext {
  /** Aborted when the caller goes away, the server shuts down, or a streamed event fails `validateResults`. */
  readonly signal: AbortSignal;
  readonly headers: IncomingHttpHeaders;
  /** From `GOOGLE_CLOUD_AGENT_ENGINE_ID`, else `PLATFORM_CLOUD_AGENT_ENGINE_ID`. */
  readonly engineId: string | undefined;
  readonly operation: string;
  /**
   * Counts `work` as in flight until it settles, for the busy route (`GET /is_busy`, the
   * platform's `keepAliveProbe`): work a handler continues after its response, so the instance is
   * not scaled in under it. Its failure is not reported here: handle it in `work` itself.
   */
  keepAlive(work: PromiseLike<unknown>): void;
}

export type OperationHandler = (input: unknown, context: HandlerContext) => unknown;

export interface AgentServerOptions {
  /** Port for `listen()`; default `$PORT`, else 8080. `0` picks a free port. */
  readonly port?: number;
  /** Host for `listen()`; default `$AGENT_SERVER_HOST`, else `0.0.0.0` as the contract requires. */
  readonly host?: string;
  /** Largest accepted request body in bytes; default 16 MiB. Larger bodies get 413 unread. */
  readonly bodyLimitBytes?: number;
  /**
   * Deepest nesting of objects and arrays accepted in a request's `input` (the input object is
   * level 1); deeper input gets 400 INVALID_ARGUMENT before validation or the handler. Default 100,
   * as protobuf's JSON parser.
   */
  readonly maxDepth?: number;
  /**
   * Milliseconds a client may take to send a request's headers (node:http's `headersTimeout`);
   * past it the request is answered 408 DEADLINE_EXCEEDED with the JSON error body and the
   * connection is closed (a slowloris client trickling headers holds no socket for long). Default
   * 60000, node:http's; a non-negative integer, at most `requestTimeout` unless that is 0.
   */
  readonly headersTimeout?: number;
  /**
   * Milliseconds a client may take to send the whole request, body included (node:http's
   * `requestTimeout`); 0 is no limit. Past it: 408 as for `headersTimeout`. Default 300000.
   */
  readonly requestTimeout?: number;
  /**
   * How often, in milliseconds, node:http looks for requests past those two timeouts; a timeout
   * is noticed up to this much late. Default 1000, or a quarter of the shorter timeout when that
   * is shorter (at least 10): node:http's own 30000 let a 3 s timeout fire after up to 33 s.
   */
  readonly connectionsCheckingInterval?: number;
  /**
   * Where log entries go. Default: the built-in logger `AGENT_LOG_FORMAT` chooses (`json`: Cloud
   * Logging's structured lines on stdout; `text`: `stderrLogger`; `off`), by default `json` when an
   * engine-id variable is set and `text` otherwise; a bad value is an error when the server is
   * built. `false`: silent, whatever the environment says.
   */
  readonly logger?: AgentServerLogger | false;
  /**
   * Serve the busy route for `deploymentSpec.keepAliveProbe` on this path (GET: 200 while a call
   * or `context.keepAlive` work is in flight, 503 when idle). Default `/is_busy`; `false`: none.
   */
  readonly busyPath?: string | false;
  /**
   * A server span per call when `@opentelemetry/api` is installed (found once, at start). Default
   * true; `false` (or `OTEL_SDK_DISABLED=true` in the environment) never loads it.
   */
  readonly tracing?: boolean;
  /** Overrides the engine id read from the environment. */
  readonly engineId?: string;
  /**
   * Check each unary result and each streamed event against the operation's declared `output`; a
   * mismatch is a 500 INTERNAL naming the operation and the field, instead of the value. What is
   * sent is the handler's value as it is, never a parsed copy. Default: on unless
   * `process.env.NODE_ENV` is `production` (read when the server is built).
   */
  readonly validateResults?: boolean;
  /**
   * Milliseconds `shutdown()` lets calls in flight finish before it gives up on those still
   * running: their handlers' signals abort, streams end with a last UNAVAILABLE error line and
   * unary calls are answered 503 UNAVAILABLE. Default `$AGENT_SHUTDOWN_GRACE_MS`, else 7000 (under
   * the 10 s the platform's Cloud Run substrate waits after SIGTERM); 0 is `close()`.
   */
  readonly shutdownGraceMs?: number;
}

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface AgentServer {
  /** Starts listening (once OpenTelemetry has been looked for); resolves with the bound address. */
  listen(): Promise<{ port: number; host: string }>;
  /**
   * Stops accepting and gives up on calls in flight at once: handlers' signals abort, streams end
   * with a last UNAVAILABLE error line, unary calls get 503 UNAVAILABLE. Resolves when every
   * connection is closed, whatever a handler that ignores its signal still does.
   */
  close(): Promise<void>;
  /**
   * What the platform's SIGTERM asks for: stops accepting new connections at once, lets calls in
   * flight finish for up to `shutdownGraceMs`, then does what `close()` does to those left. Resolves
   * when the server is closed. A `close()` during the grace period ends it at once.
   */
  shutdown(): Promise<void>;
  /** The bare request listener, to mount in another `node:http` server. */
  readonly listener: RequestListener;
  readonly server: Server;
}
