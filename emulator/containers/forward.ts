/**
 * Forwarding to the container's fixed routes, whichever face the call came in by: the unary
 * route's answer is checked and its `output` returned; the stream route's bytes are passed to the
 * face's sink as they arrive, with backpressure, and the upstream request is aborted when the
 * caller goes away. Those two routes' POSTs go out on dev's own client (container-client/),
 * which costs a fraction of node:http's per call; passthrough requests, of any method and relayed
 * as they come, stay on node:http.
 */
import { type IncomingMessage, type RequestOptions, request } from 'node:http';
import type { CallSignal } from '../calls/call-signal.js';
import { containerEnvelopeText, type ResolvedCall } from '../calls/envelope.js';
import { containerFailure, PublicError, quoteBody, statusBody } from '../google-api/status.js';
import { maxContainerBody, maxContainerLine, maxRequestBody, streamLimitMs } from '../limits.js';
import type { Exchange } from './container-client/client.js';
import { SilenceWatch } from './replica-liveness.js';
import type { Replica, ReplicaPool } from './replicas.js';

/**
 * The Content-Type the runtime forwards query payloads with: doubled (google/adk-js PR #440, found
 * when Google's TypeScript container first ran on it). Sent as the runtime sends it, so every call
 * through dev exercises what production sends.
 */
export const forwardedContentType = 'application/json,application/json';

const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

export interface Answer {
  readonly response: IncomingMessage;
  readonly replica: Replica;
}

/** One request for a container: the contract routes' POSTs, or a passthrough call (rest/passthrough.ts). */
export interface ContainerRequest {
  readonly method: string;
  readonly path: string;
  /** Sent as given, plus `content-length`. */
  readonly headers: Readonly<Record<string, string>>;
  readonly payload: string | Buffer;
}

/**
 * How one request to a replica is watched, whichever client sends it: it is never sent once the
 * caller has gone; the caller's going away (`signal`) destroys it, and with it the answer if it has
 * begun, so the container sees its connection close; until its answer starts, a replica that goes
 * silent is asked whether it is alive at all. `send` starts the request and wires the client's
 * events to the three outcomes; it returns what destroys the request.
 */
function attempt<T>(
  pool: ReplicaPool,
  replica: Replica,
  path: string,
  signal: CallSignal,
  send: (outcome: Outcome<T>) => { destroy(error: Error): void },
): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error('the caller went away'));
      return;
    }
    let watch: SilenceWatch | undefined;
    const abort = (): void => {
      sent.destroy(new Error('the caller went away'));
    };
    const sent = send({
      answered: (answer) => {
        watch?.stop();
        resolve(answer);
      },
      failed: (error) => {
        watch?.stop();
        reject(failedBeforeAnswer(pool, replica, path, error, signal));
      },
      settled: () => {
        watch?.stop();
        signal.removeEventListener('abort', abort);
      },
    });
    signal.addEventListener('abort', abort, { once: true });
    watch = new SilenceWatch(
      pool.liveness.quietMs,
      () => pool.alive(replica),
      () => sent.destroy(new FrozenReplicaError()),
    );
  });
}

/** What a request to a replica comes to: its answer began, it failed first, and (once, either way) it is over. */
interface Outcome<T> {
  answered(answer: T): void;
  failed(error: NodeJS.ErrnoException): void;
  settled(): void;
}

/**
 * A passthrough request to one replica, on node:http. (The caller's going away is wired by hand in
 * `attempt`: `request`'s own `signal` option costs a stream listener setup per call, a measurable
 * share of the emulator's time per call.) `headers` already carry `content-length`.
 */
function sendTo(
  pool: ReplicaPool,
  replica: Replica,
  call: ContainerRequest,
  headers: Record<string, string | number>,
  signal: CallSignal,
): Promise<IncomingMessage> {
  return attempt(pool, replica, call.path, signal, (outcome) => {
    const options: RequestOptions & { servername: string } = {
      hostname: replica.origin.hostname,
      port: replica.origin.port,
      path: call.path,
      method: call.method,
      agent: replica.agent,
      headers,
      // TLS's server name, which plain HTTP never sends: given, node:http's agent does not work it
      // out for every request (from the Host header and an isIP test, a measurable share of a call).
      servername: '',
    };
    const req = request(options);
    req.once('close', () => outcome.settled());
    req.once('response', (response: IncomingMessage) => outcome.answered(response));
    req.once('error', (error: NodeJS.ErrnoException) => outcome.failed(error));
    req.end(call.payload);
    return req;
  });
}

/** A contract route's POST to one replica, on dev's own client (container-client/client.ts). `size`: the payload's length in bytes. */
function postTo(
  pool: ReplicaPool,
  replica: Replica,
  path: string,
  trace: Readonly<Record<string, string>>,
  payload: string,
  size: number,
  signal: CallSignal,
): Promise<Exchange> {
  return attempt(pool, replica, path, signal, (outcome) =>
    replica.client.post(path, trace, contractHeaders, payload, size, { head: outcome.answered, fail: outcome.failed, settled: outcome.settled }),
  );
}

/** The headers every contract route's POST carries after the trace headers, as header lines. */
const contractHeaders = `content-type: ${forwardedContentType}\r\n`;

/** Why a request got no answer, as the caller is told: unreachable (try the next replica), frozen, or failed. */
function failedBeforeAnswer(pool: ReplicaPool, replica: Replica, path: string, error: NodeJS.ErrnoException, signal: CallSignal): Error {
  if (signal.aborted) return error;
  if (error instanceof FrozenReplicaError) {
    pool.frozen(replica);
    return new PublicError(
      'containerUnreachable',
      `The agent container (${replica.name}) answers nothing, not even its liveness route: the call was given up`,
      {},
      `${replica.name} frozen`,
    );
  }
  if (error.code !== undefined && unreachableCodes.has(error.code)) return new UnreachableReplicaError(error.code);
  return containerFailure(`The agent container failed before answering ${path}: ${error.message}`, `${replica.name} failed before answering`);
}

/** The replica answered neither the call nor a liveness probe (replica-liveness.ts). */
class FrozenReplicaError extends Error {
  constructor() {
    super('the replica answers nothing');
  }
}

class UnreachableReplicaError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

/** The payload's size in bytes; over the one limit, refused before anything is sent. */
function checkedSize(payload: string | Buffer): number {
  const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  if (size > maxRequestBody) {
    throw new PublicError('bodyTooLarge', `Request body re-encoded for the agent container is ${size} bytes, over the limit of ${maxRequestBody}`);
  }
  return size;
}

/**
 * `send` to the first replica that accepts the connection, in the pool's order. Only a refused
 * connection moves on to the next replica: nothing of the call has reached a container then.
 */
async function firstAccepting<T>(pool: ReplicaPool, send: (replica: Replica) => Promise<T>): Promise<{ answer: T; replica: Replica }> {
  let refused: { origin: string; code: string }[] | undefined; // made only when a replica refuses
  for (const replica of pool.order()) {
    try {
      const answer = await send(replica);
      pool.accepted(replica);
      return { answer, replica };
    } catch (error) {
      if (!(error instanceof UnreachableReplicaError)) throw error;
      pool.refused(replica, error.code);
      (refused ??= []).push({ origin: replica.origin.origin, code: error.code });
    }
  }
  refused ??= [];
  throw new PublicError(
    'containerUnreachable',
    refused.length === 1
      ? `The agent container at ${refused[0]?.origin} is not reachable (${refused[0]?.code})`
      : `No replica of the agent container is reachable: ${refused.map(({ origin, code }) => `${origin} (${code})`).join(', ')}`,
  );
}

/** A passthrough request (rest/passthrough.ts) on node:http, to the first replica that accepts it: any method, its answer relayed as it is. */
export async function sendToPool(pool: ReplicaPool, call: ContainerRequest, signal: CallSignal): Promise<Answer> {
  const headers: Record<string, string | number> = { ...call.headers, 'content-length': checkedSize(call.payload) };
  const { answer, replica } = await firstAccepting(pool, (replica) => sendTo(pool, replica, call, headers, signal));
  return { response: answer, replica };
}

/** A contract route's POST, with the headers the runtime sends. */
async function post(
  pool: ReplicaPool,
  path: string,
  payload: string,
  trace: Record<string, string>,
  signal: CallSignal,
): Promise<{ exchange: Exchange; replica: Replica }> {
  const size = checkedSize(payload);
  const { answer, replica } = await firstAccepting(pool, (replica) => postTo(pool, replica, path, trace, payload, size, signal));
  return { exchange: answer, replica };
}

/** The whole answer body as text, bounded. */
function readBody(exchange: Exchange): Promise<string> {
  return new Promise((resolve, reject) => {
    // One chunk (a small answer's usual shape) is decoded as it is, without a copy or an array.
    let first: Buffer | undefined;
    let more: Buffer[] | undefined;
    let size = 0;
    exchange.consume({
      data(chunk) {
        size += chunk.length;
        if (size > maxContainerBody) {
          reject(containerFailure(`The agent container's answer is larger than ${maxContainerBody} bytes`, 'container answer too large'));
          exchange.destroy();
          return;
        }
        if (first === undefined) first = chunk;
        else (more ??= [first]).push(chunk);
      },
      end() {
        resolve(more !== undefined ? Buffer.concat(more, size).toString('utf8') : first === undefined ? '' : first.toString('utf8'));
      },
      error(error) {
        reject(containerFailure(`The agent container broke off its answer: ${error.message}`, 'container broke off'));
      },
    });
  });
}

/**
 * The platform's answer to a container's non-2xx answer: 400 FAILED_PRECONDITION, the container's
 * body after `Error Details: ` (bounded; nothing when empty). Its HTTP status goes to the log.
 */
async function failed(route: string, exchange: Exchange, replica: Replica): Promise<never> {
  const body = await readBody(exchange);
  throw containerFailure(body.trim() === '' ? '' : quoteBody(body), `${replica.name} answered HTTP ${exchange.statusCode} on ${route}`);
}

export interface UnaryOutcome {
  /** The container's `output`, as parsed. */
  readonly output: unknown;
  readonly replica: Replica;
}

/**
 * Unary: the container's `output`, or a PublicError. `trace`: the platform's trace headers for
 * the container (see calls/trace-headers.ts).
 */
export async function forwardUnary(
  pool: ReplicaPool,
  call: ResolvedCall,
  bodyAsString: boolean,
  trace: Record<string, string>,
  signal: CallSignal,
): Promise<UnaryOutcome> {
  const route = call.routing.containerRoute;
  const envelope = containerEnvelopeText(call);
  // Contract 4.2 rule 2: the runtime may deliver a sync body as a JSON-encoded string.
  const { exchange, replica } = await post(pool, route, bodyAsString ? JSON.stringify(envelope) : envelope, trace, signal);
  const status = exchange.statusCode;
  if (status < 200 || status > 299) return failed(route, exchange, replica);
  const text = await readBody(exchange);
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw containerFailure(`The agent container answered ${call.method} with a body that is not JSON: ${quoteBody(text)}`, `${replica.name} answer not JSON`);
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer) || !('output' in answer)) {
    throw containerFailure(`The agent container answered ${call.method} without {"output": ...}: ${quoteBody(text)}`, `${replica.name} answer without output`);
  }
  return { output: (answer as { output: unknown }).output, replica };
}

/** The last line's message when a stream is cut. The runtime's own wording is not documented. */
export function streamLimitMessage(limitMs: number): string {
  return `The stream ran past the runtime's limit of ${limitMs / 1000} s and was cut; break the task into shorter turns`;
}

/** Where a face sends a stream's bytes: the REST face frames them as NDJSON or SSE, the gRPC face as HttpBody messages. */
export interface StreamSink {
  /** The container accepted the call: the caller's answer starts now (headers go out). */
  open(): void;
  /** A chunk of the container's NDJSON, cut anywhere; false when the caller is not keeping up. */
  write(chunk: Buffer): boolean;
  /** Calls `resume` once the caller can take more, after `write` returned false. */
  onceDrained(resume: () => void): void;
  /**
   * The end of the answer. `errorLine` (a `{"error": ...}` JSON text, no newline) is the last line
   * when the container's stream broke off; the sink ends any partial line before it.
   */
  end(errorLine?: string): void;
  /** The caller has gone (its connection or call is closed): nothing more can be sent. */
  readonly gone: boolean;
}

export interface StreamOutcome {
  /** Why the stream ended other than normally, for the log line. */
  readonly note: string | undefined;
  readonly replica: Replica;
}

/**
 * Streaming: once the container accepts (2xx), the sink opens and every chunk is passed on as it
 * arrives. A container failure before that throws a PublicError; one after it becomes a last
 * `{"error": ...}` line, as the reference containers do.
 */
export async function forwardStream(
  pool: ReplicaPool,
  call: ResolvedCall,
  sink: StreamSink,
  trace: Record<string, string>,
  signal: CallSignal,
  limitMs: number = streamLimitMs,
): Promise<StreamOutcome> {
  const started = performance.now();
  const route = call.routing.containerRoute;
  const { exchange, replica } = await post(pool, route, containerEnvelopeText(call), trace, signal);
  const status = exchange.statusCode;
  if (status < 200 || status > 299) return failed(route, exchange, replica);
  sink.open();
  return new Promise<StreamOutcome>((resolve) => {
    const relay = new StreamRelay({ pool, call, sink, exchange, replica, signal, limitMs, started }, resolve);
    exchange.consume({ data: (chunk) => relay.data(chunk), end: () => relay.end(), error: (error) => relay.broken(error.message) });
    signal.addEventListener('abort', () => relay.settle('caller disconnected'), { once: true });
  });
}

/** What a stream relay passes on, from where to where, and within what time. */
interface RelayParts {
  readonly pool: ReplicaPool;
  readonly call: ResolvedCall;
  readonly sink: StreamSink;
  readonly exchange: Exchange;
  readonly replica: Replica;
  readonly signal: CallSignal;
  readonly limitMs: number;
  /** When the call started (performance.now()): the stream limit counts from it. */
  readonly started: number;
}

/**
 * One accepted stream passed on to its sink, chunk by chunk with backpressure, until it ends in one
 * of its ways (each settles it once, with the log's note): the container's end, its breaking off,
 * the caller's going away, a replica gone silent, the stream limit, a line over the limit.
 */
class StreamRelay {
  #settled = false;
  /** Bytes of the line under way (since the last newline); a line within one chunk is at most the chunk. */
  #lineBytes = 0;
  readonly #watch: SilenceWatch;
  readonly #limit: NodeJS.Timeout;
  readonly #resume: () => void;
  readonly #parts: RelayParts;
  readonly #resolve: (outcome: StreamOutcome) => void;

  constructor(parts: RelayParts, resolve: (outcome: StreamOutcome) => void) {
    this.#parts = parts;
    this.#resolve = resolve;
    const { pool, replica, limitMs, started, exchange } = parts;
    this.#resume = () => exchange.resume();
    // A replica that goes silent mid-stream and answers no liveness probe: the stream ends with UNAVAILABLE.
    this.#watch = new SilenceWatch(
      pool.liveness.quietMs,
      () => pool.alive(replica),
      () => this.#frozen(),
    );
    // The runtime cuts a stream at its limit: the caller gets a last error line, the container its connection closed.
    this.#limit = setTimeout(() => this.#cut(), Math.max(0, limitMs - (performance.now() - started)));
  }

  settle(note: string | undefined): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#limit);
    this.#watch.stop();
    this.#resolve({ note, replica: this.#parts.replica });
  }

  data(chunk: Buffer): void {
    const { sink, exchange } = this.#parts;
    this.#watch.heard();
    const first = chunk.indexOf(0x0a);
    const longest = first === -1 ? this.#lineBytes + chunk.length : this.#lineBytes + first;
    this.#lineBytes = first === -1 ? longest : chunk.length - chunk.lastIndexOf(0x0a) - 1;
    if (longest > maxContainerLine || this.#lineBytes > maxContainerLine) return this.#lineTooLong();
    if (!sink.write(chunk)) {
      exchange.pause(); // backpressure: the caller reads slower than the container writes
      sink.onceDrained(this.#resume);
    }
  }

  end(): void {
    this.#parts.sink.end();
    this.settle(undefined);
  }

  /** The container died mid-stream (or the caller left and the request was aborted). */
  broken(reason: string): void {
    if (this.#settled) return;
    const { signal, sink, call, replica } = this.#parts;
    if (signal.aborted || sink.gone) {
      this.settle('caller disconnected');
      return;
    }
    sink.end(JSON.stringify(statusBody('containerFailed', `The agent container's stream for ${call.method} broke off: ${reason}`)));
    this.settle(`${replica.name} stream broke off`);
  }

  #frozen(): void {
    if (this.#settled) return;
    const { pool, replica, sink, exchange } = this.#parts;
    this.settle(`${replica.name} frozen`);
    pool.frozen(replica);
    sink.end(
      JSON.stringify(statusBody('containerUnreachable', `The agent container (${replica.name}) stopped answering mid-stream, not even its liveness route`)),
    );
    exchange.destroy();
  }

  #cut(): void {
    if (this.#settled) return;
    const { limitMs, sink, exchange } = this.#parts;
    this.settle(`cut at the ${limitMs} ms stream limit`);
    sink.end(JSON.stringify(statusBody('streamLimit', streamLimitMessage(limitMs))));
    exchange.destroy();
  }

  #lineTooLong(): void {
    if (this.#settled) return;
    const { replica, sink, call, exchange } = this.#parts;
    this.settle(`${replica.name} sent a line over ${maxContainerLine} bytes`);
    sink.end(
      JSON.stringify(
        statusBody(
          'containerFailed',
          `The agent container's stream for ${call.method} sent a line longer than ${maxContainerLine} bytes: agentgen dev ended it.`,
        ),
      ),
    );
    exchange.destroy();
  }
}
