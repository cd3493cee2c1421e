/**
 * dev's client for the two contract routes of a container: a POST, one at a time per connection,
 * over a pool of keep-alive connections (net.Socket), the answer parsed by response-parser.ts.
 * node:http's client (ClientRequest, IncomingMessage, its agent) was over a third of dev's time
 * per call; this does the same for the one shape of request dev sends. What it keeps of
 * node:http's agent: connections reused last-in first-out; a kept connection the server closes is
 * dropped; a request whose connection breaks before an answer fails with `socket hang up` and is
 * not sent again (a POST is not retried, as the agent does not retry it); `connection: close` or an
 * answer without a length closes the connection. Idle connections are closed after `idleMs` by
 * one sweep timer rather than a timeout set on every socket for every call.
 */
import { connect, type Socket } from 'node:net';
import { type ParserEvents, ResponseParser } from './response-parser.js';

/** Where an exchange's answer body goes; `error` when it breaks off before its end. */
export interface BodyHandlers {
  data(chunk: Buffer): void;
  end(): void;
  error(error: Error): void;
}

export interface ExchangeHandlers {
  /** The answer's status arrived; its body is read with `exchange.consume`. */
  head(exchange: Exchange): void;
  /** No answer: the connection failed (`code`: the socket's, e.g. ECONNREFUSED), broke or was destroyed first. */
  fail(error: NodeJS.ErrnoException): void;
  /** Once, when the exchange is over whichever way (answer read, failure, destroy). */
  settled(): void;
}

/** A header value node:http would refuse (it checks the same set). */
const invalidHeaderChar = /[^\t\x20-\x7e\x80-\xff]/;

function connReset(message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code: 'ECONNRESET' });
}

/** One request and its answer. */
export class Exchange implements ParserEvents {
  statusCode = 0;
  /** The whole answer was read. */
  complete = false;
  #connection: Connection | undefined;
  #handlers: ExchangeHandlers;
  #body: BodyHandlers | undefined;
  /** Body chunks not yet delivered: read before `consume`, or while paused. */
  #queue: Buffer[] | undefined;
  #paused = false;
  #settled = false;
  #endPending = false;
  #brokenBeforeConsumed = false;

  constructor(connection: Connection, handlers: ExchangeHandlers) {
    this.#connection = connection;
    this.#handlers = handlers;
  }

  /** Starts delivering the body (chunks already read come first). */
  consume(body: BodyHandlers): void {
    this.#body = body;
    if (this.#brokenBeforeConsumed) body.error(connReset('aborted'));
    else this.#flush();
  }

  pause(): void {
    this.#paused = true;
    this.#connection?.socket.pause();
  }

  resume(): void {
    this.#paused = false;
    this.#flush();
    if (!this.#paused) this.#connection?.socket.resume();
  }

  /** Gives the exchange up: its connection is closed (the container sees it close) unless the answer was already read whole. */
  destroy(error?: Error): void {
    this.#queue = undefined;
    if (this.#settled) return;
    if (this.complete) {
      // Read whole, its end not yet delivered (the consumer had paused): nothing more is delivered.
      this.#endPending = false;
      this.#settle();
      return;
    }
    const connection = this.#connection;
    this.#connection = undefined;
    if (connection !== undefined) {
      connection.exchange = undefined;
      connection.socket.destroy();
    }
    this.broken(error ?? connReset('aborted'));
  }

  head(status: number): void {
    this.statusCode = status;
    this.#handlers.head(this);
  }

  body(chunk: Buffer): void {
    if (this.#body === undefined || this.#paused || this.#queue !== undefined) (this.#queue ??= []).push(chunk);
    else this.#body.data(chunk);
  }

  done(): void {
    this.complete = true;
    this.#endPending = true;
    this.#flush();
  }

  /** The connection broke, failed or was destroyed before the end of the answer. */
  broken(error: NodeJS.ErrnoException): void {
    if (this.#settled || this.complete) return;
    this.#connection = undefined;
    this.#queue = undefined;
    if (this.statusCode === 0) this.#handlers.fail(error);
    // As node:http's IncomingMessage: however its connection broke, an answer cut short is `aborted`.
    else if (this.#body !== undefined) this.#body.error(connReset('aborted'));
    else this.#brokenBeforeConsumed = true; // told to the consumer when it comes

    this.#settle();
  }

  /** The connection is no longer this exchange's (its answer was read whole). */
  detach(): void {
    this.#connection = undefined;
  }

  #flush(): void {
    const body = this.#body;
    if (body === undefined) return;
    const queue = this.#queue;
    if (queue !== undefined) {
      while (queue.length > 0 && !this.#paused) body.data(queue.shift() as Buffer);
      if (queue.length > 0 || this.#queue !== queue) return;
      this.#queue = undefined;
    }
    if (this.#endPending && !this.#paused) {
      this.#endPending = false;
      body.end();
      this.#settle();
    }
  }

  #settle(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#handlers.settled();
  }
}

/** One socket to the container, its listeners set once for its whole life. */
class Connection {
  readonly socket: Socket;
  readonly parser = new ResponseParser();
  exchange: Exchange | undefined;
  /** When it was last put back in the pool (performance.now()). */
  idleSince = 0;
  #error: NodeJS.ErrnoException | undefined;

  readonly #client: ContainerClient;
  constructor(client: ContainerClient, host: string, port: number) {
    this.#client = client;

    // TCP keep-alive probes after 1 s idle, as node:http's agent sets them with `keepAlive: true`.
    this.socket = connect({ host, port, noDelay: true, keepAlive: true, keepAliveInitialDelay: 1_000 });
    this.socket.on('data', (data: Buffer) => this.#data(data));
    this.socket.on('end', () => this.#end());
    this.socket.on('error', (error: NodeJS.ErrnoException) => {
      this.#error ??= error;
    });
    this.socket.on('close', () => this.#close());
  }

  start(exchange: Exchange, text: string): void {
    this.exchange = exchange;
    this.parser.expect(exchange);
    this.socket.write(text);
  }

  #data(data: Buffer): void {
    const exchange = this.exchange;
    if (exchange === undefined) {
      // Bytes on an idle connection answer nothing dev asked: the connection is not to be trusted.
      this.socket.destroy();
      return;
    }
    try {
      this.parser.feed(data);
    } catch (error) {
      this.#error = error as NodeJS.ErrnoException;
      this.exchange = undefined;
      this.socket.destroy();
      exchange.broken(error as NodeJS.ErrnoException);
      return;
    }
    if (this.parser.complete && this.exchange === exchange) this.#release(exchange);
  }

  #end(): void {
    const exchange = this.exchange;
    // A body that runs to the end of the connection is complete now; anything else was cut short.
    if (exchange !== undefined && this.parser.eof()) {
      this.exchange = undefined;
      exchange.detach();
    }
    this.socket.destroy();
  }

  #close(): void {
    this.#client.forget(this);
    const exchange = this.exchange;
    this.exchange = undefined;
    exchange?.broken(this.#error ?? connReset('socket hang up'));
  }

  #release(exchange: Exchange): void {
    this.exchange = undefined;
    exchange.detach();
    // Reused only when the answer allows it and the request went out whole (a server may answer before reading it all).
    if (this.parser.keepAlive && !this.socket.destroyed && this.socket.writableLength === 0) {
      this.socket.resume(); // a consumer's pause was the exchange's, not the connection's
      this.#client.keep(this);
    } else this.socket.destroy();
  }
}

export class ContainerClient {
  readonly #host: string;
  readonly #port: number;
  /** `Host` header and the rest of each request's fixed head. */
  readonly #headTail: string;
  readonly #idle: Connection[] = [];
  #sweep: ReturnType<typeof setInterval> | undefined;
  #destroyed = false;

  readonly #idleMs: number;
  constructor(
    origin: URL,
    /**
     * How long a connection may sit idle before it is closed (by a sweep every eighth of it, so at
     * most 9/8 of it): under the container's own keep-alive timeout.
     */
    idleMs: number,
  ) {
    this.#idleMs = idleMs;

    this.#host = origin.hostname.startsWith('[') ? origin.hostname.slice(1, -1) : origin.hostname;
    this.#port = Number(origin.port || 80);
    // As node:http writes them: after the caller's headers.
    this.#headTail = `Host: ${origin.host}\r\nConnection: keep-alive\r\n\r\n`;
  }

  /**
   * POSTs `payload` to `path` with `headers`, then `fixedLines` (header lines the caller wrote
   * once, each ending in CRLF), then its `content-length` (`size`). Throws a TypeError for a
   * header value node:http would refuse, before anything is sent.
   */
  post(path: string, headers: Readonly<Record<string, string>>, fixedLines: string, payload: string, size: number, handlers: ExchangeHandlers): Exchange {
    let head = `POST ${path} HTTP/1.1\r\n`;
    for (const name in headers) {
      const value = headers[name] as string;
      if (invalidHeaderChar.test(value)) throw Object.assign(new TypeError(`Invalid character in header content ["${name}"]`), { code: 'ERR_INVALID_CHAR' });
      head += `${name}: ${value}\r\n`;
    }
    const connection = this.#take();
    const exchange = new Exchange(connection, handlers);
    connection.start(exchange, `${head}${fixedLines}content-length: ${size}\r\n${this.#headTail}${payload}`);
    return exchange;
  }

  /** Closes every connection; an exchange under way breaks off. */
  destroy(): void {
    this.#destroyed = true;
    clearInterval(this.#sweep);
    this.#sweep = undefined;
    for (const connection of this.#idle.splice(0)) connection.socket.destroy();
  }

  /** An idle connection (the one used last), or a new one. */
  #take(): Connection {
    for (;;) {
      const kept = this.#idle.pop();
      if (kept === undefined) return new Connection(this, this.#host, this.#port);
      if (!kept.socket.destroyed) return kept;
    }
  }

  /** @internal A connection whose answer was read whole, back in the pool. */
  keep(connection: Connection): void {
    if (this.#destroyed) {
      connection.socket.destroy();
      return;
    }
    connection.idleSince = performance.now();
    this.#idle.push(connection);
    if (this.#sweep === undefined) {
      this.#sweep = setInterval(() => this.#closeIdle(), Math.max(10, this.#idleMs / 8));
      this.#sweep.unref();
    }
  }

  /** @internal A connection that closed: never handed out again. */
  forget(connection: Connection): void {
    const index = this.#idle.indexOf(connection);
    if (index !== -1) this.#idle.splice(index, 1);
  }

  #closeIdle(): void {
    const oldest = performance.now() - this.#idleMs;
    // Oldest first: the pool is last-in first-out, so the ones idle longest are at the front.
    while (this.#idle.length > 0 && (this.#idle[0] as Connection).idleSince <= oldest) (this.#idle.shift() as Connection).socket.destroy();
    if (this.#idle.length === 0) {
      clearInterval(this.#sweep);
      this.#sweep = undefined;
    }
  }

  /** How many connections sit idle in the pool (for tests). */
  get idleConnections(): number {
    return this.#idle.length;
  }
}
