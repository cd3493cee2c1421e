/**
 * The container's server: listen on `$PORT` (default 8080) at 0.0.0.0 (or `$AGENT_SERVER_HOST`:
 * `agentgen dev --command` sets 127.0.0.1, so a local container is not reachable from the
 * network); `shutdown()` (what SIGTERM
 * should do: stop accepting, let work in flight finish within a grace period, end the rest) and
 * `close()` (the same with no grace).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import type { A2AFace } from '../a2a/types.js';
import { containerErrors, type ErrorRow } from '../contract.js';
import { createDispatcher } from './dispatcher.js';
import { errorBody } from './errors.js';
import type { AgentServerLogger } from './logger.js';
import { rawHeader } from './raw-headers.js';
import { checkedTimeouts } from './timeouts.js';
import { turnEnd } from './turn-end.js';
import type { AgentServer, AgentServerOptions, RequestListener, ServerOperationTable } from './types.js';

/** The bare `(req, res)` listener over the table, to mount in an existing `node:http` server. */
export function createListener(table: ServerOperationTable, handlers: object, options?: AgentServerOptions, a2a?: A2AFace): RequestListener {
  return createDispatcher(table, handlers, options, a2a).listener;
}

/** `a2a`: the spec's A2A face (generated `server.ts` passes it when the spec has an `a2a:` section). */
export function createContainer(table: ServerOperationTable, handlers: object, options: AgentServerOptions = {}, a2a?: A2AFace): AgentServer {
  const timeouts = checkedTimeouts(options, 'agent server: ');
  const dispatcher = createDispatcher(table, handlers, options, a2a);
  // node:http answers a request without Host with a bare 400 of its own: the container says why, in JSON.
  const server = createServer({ ...timeouts, requireHostHeader: false }, (req, res) => {
    if (lacksHost(req)) refuseNoHost(res, dispatcher.logger);
    else dispatcher.listener(req, res);
  });
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => refuseClient(error, socket, dispatcher.logger));
  // Without a listener node:http drops a CONNECT's socket unanswered: a 405 in JSON instead.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => refuseConnect(socket, dispatcher.logger));
  const graceMs = shutdownGrace(options);
  let closed: Promise<void> | undefined;
  /** Ends the grace period early: `close()` during a `shutdown()`. */
  let endGrace: (() => void) | undefined;
  const stop = (grace: number): Promise<void> => {
    if (closed !== undefined) {
      if (grace === 0) endGrace?.();
      return closed;
    }
    closed = new Promise<void>((resolve, reject) => {
      if (!server.listening) {
        dispatcher.shutdown();
        resolve();
        return;
      }
      // Stop accepting at once; requests already on a connection are answered `Connection: close`.
      // Closed, the server's last lines are on stdout before the process may exit.
      server.close((error) => {
        turnEnd.flush();
        if (error) reject(error);
        else resolve();
      });
      dispatcher.drain();
      server.closeIdleConnections();
      const ended = new Promise<void>((done) => {
        if (grace === 0) return done();
        const timer = setTimeout(done, grace);
        endGrace = () => {
          clearTimeout(timer);
          done();
        };
        void dispatcher.idle().then(endGrace);
      });
      void ended.then(() => {
        endGrace = undefined;
        // Work still running is given up: handlers' signals abort, streams get their last
        // UNAVAILABLE line, unary calls a 503 (Exchange.shutdown).
        dispatcher.shutdown();
        server.closeIdleConnections();
        // Once those answers are out (or after a bound: a body still uploading is no call yet),
        // every connection is cut, so `close` resolves and the process can exit whatever a
        // handler that ignores its signal still does.
        let cut: ReturnType<typeof setTimeout> | undefined;
        const answered = new Promise<void>((done) => {
          cut = setTimeout(done, answerBoundMs);
          void dispatcher.idle().then(done);
        });
        void answered.then(() => {
          clearTimeout(cut);
          server.closeAllConnections();
        });
      });
    });
    return closed;
  };
  return {
    listener: dispatcher.listener,
    server,
    async listen() {
      await dispatcher.ready;
      return new Promise((resolve, reject) => {
        const port = options.port ?? portFromEnv();
        const host = options.host ?? hostFromEnv();
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
    close: () => stop(0),
    shutdown: () => stop(graceMs),
  };
}

/**
 * The default of `shutdownGraceMs`: 7 s. The platform runs containers on Cloud Run, which sends
 * SIGTERM and kills the instance 10 s later; the grace leaves 3 s of that window for the 503s, a
 * last telemetry flush (bounded at 2 s, call-span.ts) and the exit.
 */
export const defaultShutdownGraceMs = 7_000;

/** After the grace, how long the answers to abandoned work may take before connections are cut. */
const answerBoundMs = 500;

function shutdownGrace(options: AgentServerOptions): number {
  const raw = process.env['AGENT_SHUTDOWN_GRACE_MS']?.trim();
  const fromEnv = raw === undefined || raw === '' ? undefined : Number(raw);
  const grace = options.shutdownGraceMs ?? fromEnv ?? defaultShutdownGraceMs;
  if (!Number.isSafeInteger(grace) || grace < 0) {
    const source = options.shutdownGraceMs === undefined && fromEnv !== undefined ? `$AGENT_SHUTDOWN_GRACE_MS` : 'shutdownGraceMs';
    throw new RangeError(`agent server: ${source} must be an integer of milliseconds >= 0, got ${JSON.stringify(options.shutdownGraceMs ?? raw)}`);
  }
  return grace;
}

/** Statuses of the parser errors and timeouts node:http reports as `clientError`. */
const http = { 400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' } as const;

function clientErrorRow(code: string | undefined): { row: ErrorRow; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { row: containerErrors.headersTooLarge, message: 'the request headers exceed the server limit' };
    case 'ERR_HTTP_REQUEST_TIMEOUT': // headersTimeout or requestTimeout
      return { row: containerErrors.requestTimeout, message: 'the request was not received in time' };
    default:
      return {
        row: containerErrors.malformedRequest,
        message: `the request is not valid HTTP/1.1${code === undefined ? '' : ` (${code})`}`,
      };
  }
}

/**
 * node:http's `clientError` (a request it cannot parse, headers too large, a header or request
 * timeout): the container's JSON error body instead of Node's bare status line, then the
 * connection closes. Nothing of the request is quoted, only the parser's error code.
 */
function refuseClient(error: Error & { code?: string }, socket: Duplex, logger: AgentServerLogger | undefined): void {
  const pending = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent === true) {
    // The caller is gone, or an answer already started on this connection: nothing can be said.
    socket.destroy();
    return;
  }
  const { row, message } = clientErrorRow(error.code);
  answerRaw(socket, row, message, '', logger);
}

function refuseConnect(socket: Duplex, logger: AgentServerLogger | undefined): void {
  const message = 'method CONNECT is not allowed: the container serves POST /api/reasoning_engine and POST /api/stream_reasoning_engine';
  answerRaw(socket, containerErrors.methodNotAllowed, message, 'allow: GET, HEAD, POST\r\n', logger);
}

/** HTTP/1.1 requires Host (RFC 9112 3.2); HTTP/1.0 may leave it out. Read from rawHeaders: `req.headers` costs per request. */
function lacksHost(req: IncomingMessage): boolean {
  return req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && rawHeader(req.rawHeaders, 'host') === undefined;
}

function refuseNoHost(res: ServerResponse, logger: AgentServerLogger | undefined): void {
  const row = containerErrors.malformedRequest;
  const message = 'the request has no Host header, which HTTP/1.1 requires';
  const body = errorBody(row.status, row.http, message);
  log(logger, message, row.http);
  res.writeHead(row.http, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
}

/** A whole answer written to the socket (node:http has no response object here), then the connection closes. */
function answerRaw(socket: Duplex, row: ErrorRow, message: string, headers: string, logger: AgentServerLogger | undefined): void {
  const body = errorBody(row.status, row.http, message);
  const reason = http[row.http as keyof typeof http];
  log(logger, message, row.http);
  socket.end(
    `HTTP/1.1 ${row.http} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `${headers}connection: close\r\n\r\n${body}`,
  );
}

/** Logs a refusal answered outside an exchange, and writes the line at once: the answer follows it (turn-end.ts). */
function log(logger: AgentServerLogger | undefined, message: string, status: number): void {
  if (logger === undefined) return;
  try {
    logger({ level: 'info', message, status });
  } catch {
    // A failing logger must not take the server down with it.
  }
  turnEnd.flush();
}

/** The interface to listen on: `$AGENT_SERVER_HOST` when set, else 0.0.0.0 (contract rule 6). */
function hostFromEnv(): string {
  const raw = process.env['AGENT_SERVER_HOST']?.trim();
  if (raw === undefined || raw === '') return '0.0.0.0';
  if (isIP(raw) === 0) {
    throw new RangeError(`agent server: $AGENT_SERVER_HOST must be an IP address such as 127.0.0.1 or 0.0.0.0, got ${JSON.stringify(raw)}`);
  }
  return raw;
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
