/**
 * `agentgen dev`: the runtime's public API (`:query`, `:streamQuery`, `GET` of the resource) on loopback, in front of a container.
 * It authenticates, parses the envelope, routes by the declared `api_mode` only, forwards to the
 * container's fixed routes, and answers errors as `google.rpc.Status`, as the runtime does.
 */
import { createServer, Agent, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { spawnContainer, type ContainerProcess } from './container-process.js';
import { defaultMaxDepth, resolveCall, type PublicEndpoint, type ResolvedCall } from './envelope.js';
import { checkMaxDepth, serverTimeouts } from './limits.js';
import { forwardStream, forwardUnary, maxRequestBody, type Upstream } from './forward.js';
import type { ManifestEntry } from '../spec/index.js';
import { buildMethodTable } from './manifest.js';
import { describeResource, type ResourceDescription } from './resource.js';
import type { ErrorCondition } from '../spec/index.js';
import { PublicError, sendStatus, statusBody, statusOf } from './status.js';
import { platformTraceHeaders } from './trace-headers.js';

export interface EmulatorOptions {
  /** A running container's base URL. Exactly one of `container` and `command`. */
  readonly container: URL | string | undefined;
  /** A shell command that starts the container; it gets `PORT` and the engine-id variables. */
  readonly command?: string;
  /** The resource's `spec.classMethods`: routing reads `name` and `api_mode`; GET returns it as given. */
  readonly manifest: readonly ManifestEntry[];
  /** The rest of what `GET /v1/{resource}` returns: display name, agent framework, deployment spec. */
  readonly resourceDescription?: ResourceDescription;
  /** Default 8600; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1: a dev tool does not listen beyond the machine unless asked. */
  readonly host?: string;
  /** Default `projects/local/locations/local/reasoningEngines/1`. */
  readonly resource?: string;
  /** When set, only `Authorization: Bearer <token>` is accepted; otherwise any bearer token. */
  readonly token?: string;
  /** Forward sync bodies as a JSON-encoded string, as the runtime may. Default true. */
  readonly forwardSyncAsString?: boolean;
  /** One line per call, and the container's output under `--command`. Default: console.log. */
  readonly logger?: (line: string) => void;
  /** How long `--command` may take to accept connections. Default 30 s. */
  readonly startTimeoutMs?: number;
  /**
   * Host names (`--allowed-host`) accepted in the `Host` header besides the loopback ones
   * (localhost, 127.0.0.1, [::1]); any other `Host` is refused 403 (DNS-rebinding defence).
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Deepest nesting of objects and arrays accepted in a call's `input` (`--max-depth`; the input
   * object is level 1); deeper input gets 400 INVALID_ARGUMENT before anything is forwarded.
   * Default 100, as protobuf's JSON parser and the container runtime. A positive integer.
   */
  readonly maxDepth?: number;
  /**
   * Milliseconds a caller may take to send a request's headers (node:http's `headersTimeout`);
   * past it: 408 DEADLINE_EXCEEDED as a Status body, and the connection is closed. Default 60000;
   * a non-negative integer, at most `requestTimeout` unless that is 0.
   */
  readonly headersTimeout?: number;
  /** Milliseconds for the whole request, body included (node:http's `requestTimeout`; 0 is none). Default 300000. */
  readonly requestTimeout?: number;
  /**
   * How often node:http looks for requests past those timeouts, in ms (a positive integer).
   * Default 30000, or a quarter of the shorter timeout given (at least 10), so a short limit holds.
   */
  readonly connectionsCheckingInterval?: number;
}

export interface Emulator {
  /** Base URL of the public API, e.g. `http://127.0.0.1:8600`. */
  readonly url: string;
  readonly resource: string;
  /** The container the emulator forwards to. */
  readonly containerUrl: string;
  close(): Promise<void>;
}

export const defaultResource = 'projects/local/locations/local/reasoningEngines/1';
export const defaultPort = 8600;
const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);
const loopbackOrigin = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;
/** How long a connection being closed (413, client error) may take to read its answer before it is destroyed. */
const closeGraceMs = 1000;

/** The name part of a `Host` header (`[::1]:8600` -> `[::1]`), lower-cased; undefined when malformed. */
function hostName(host: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(:\d{1,5})?$/i.exec(host.trim());
  return match?.[1]?.toLowerCase();
}

function hostAllowed(host: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (host === undefined) return false;
  const name = hostName(host);
  if (name === undefined) return false;
  return loopbackHosts.has(name) || allowed.has(name) || allowed.has(host.trim().toLowerCase());
}

/** An answer given before the request's body was read: that body is not read on (it may be endless). */
function bodyPending(req: IncomingMessage): boolean {
  return !req.complete && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0);
}

/** Stops reading a connection whose body is refused, and closes it once the answer is out. */
function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket;
  req.removeAllListeners('data');
  req.pause();
  const shut = (): void => {
    socket.pause();
    socket.end();
    setTimeout(() => socket.destroy(), closeGraceMs).unref();
  };
  if (res.writableFinished) shut();
  else res.once('finish', shut);
}

function parseContainerUrl(value: URL | string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`container must be a URL such as http://127.0.0.1:8080, got ${JSON.stringify(String(value))}`);
  }
  if (url.protocol !== 'http:') throw new TypeError(`container must be an http:// URL, got ${url.href}`);
  return url;
}

function checkResource(resource: string): void {
  if (!/^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(resource) || resource.split('/').some((s) => s === '.' || s === '..')) {
    throw new TypeError(`resource must be a path like ${defaultResource}, got ${JSON.stringify(resource)}`);
  }
}

/**
 * The request body, bounded: a body over the limit is refused without reading the rest, and the
 * connection is closed after the 413 (reading an endless upload to its end is what an attacker wants).
 */
function readRequestBody(req: IncomingMessage): Promise<string> {
  const close = { connection: 'close' };
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxRequestBody) {
    return Promise.reject(new PublicError('bodyTooLarge', `Request body of ${declared} bytes exceeds the limit of ${maxRequestBody}`, close));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxRequestBody) {
        req.removeAllListeners('data');
        req.pause();
        reject(new PublicError('bodyTooLarge', `Request body exceeds the limit of ${maxRequestBody} bytes`, close));
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

interface Target {
  readonly endpoint: PublicEndpoint | 'resource';
  readonly sse: boolean;
}

/** Maps a path to the resource or one of its two query endpoints; anything else is NOT_FOUND. */
function target(url: URL, resource: string): Target {
  const prefix = '/v1/';
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    throw new PublicError('unknownPath', `Malformed path ${url.pathname}`);
  }
  if (!path.startsWith(prefix)) throw new PublicError('unknownPath', `No such path ${url.pathname}: the API is under /v1/${resource}`);
  const rest = path.slice(prefix.length);
  const colon = rest.lastIndexOf(':');
  const name = colon > rest.lastIndexOf('/') ? rest.slice(0, colon) : rest;
  const verb = colon > rest.lastIndexOf('/') ? rest.slice(colon) : '';
  if (name !== resource) throw new PublicError('unknownPath', `Resource ${name} not found: this emulator serves ${resource}`);
  if (verb === '') return { endpoint: 'resource', sse: false };
  if (verb !== ':query' && verb !== ':streamQuery') {
    throw new PublicError('unknownPath', `No such method ${verb} on ${resource}: use :query or :streamQuery`);
  }
  const alt = url.searchParams.get('alt');
  if (alt !== null && alt !== 'sse' && alt !== 'json') throw new PublicError('invalidEnvelope', `Unsupported alt=${alt}: use alt=sse or none`);
  if (alt === 'sse' && verb === ':query') throw new PublicError('invalidEnvelope', 'alt=sse applies to :streamQuery only');
  return { endpoint: verb, sse: alt === 'sse' };
}

function authenticate(req: IncomingMessage, token: string | undefined): void {
  const header = req.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match === null) {
    throw new PublicError('unauthenticated', 'Request is missing a valid "Authorization: Bearer <token>" header', { 'www-authenticate': 'Bearer' });
  }
  if (token !== undefined && match[1] !== token) {
    throw new PublicError('unauthenticated', 'The bearer token is not the one this emulator was started with (--token)', { 'www-authenticate': 'Bearer' });
  }
}

function checkContentType(req: IncomingMessage): void {
  const type = req.headers['content-type'];
  // Absent is tolerated (curl -d without -H); anything other than JSON is refused clearly.
  if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) {
    throw new PublicError('unsupportedMediaType', `Content-Type must be application/json, got ${type}`);
  }
}

export async function startEmulator(options: EmulatorOptions): Promise<Emulator> {
  const table = buildMethodTable(options.manifest);
  const resource = options.resource ?? defaultResource;
  checkResource(resource);
  // The "deployment" is the emulator's start: its create and update time.
  const resourceBody = JSON.stringify(describeResource(resource, [...options.manifest], new Date(), options.resourceDescription));
  const log = options.logger ?? ((line: string) => console.log(line));
  const bodyAsString = options.forwardSyncAsString ?? true;
  const maxDepth = checkMaxDepth(options.maxDepth ?? defaultMaxDepth);
  const timeouts = serverTimeouts(options);
  if ((options.container === undefined) === (options.command === undefined)) {
    throw new TypeError('Give exactly one of container (a URL) and command (a shell command that starts the container)');
  }
  const containerUrl = options.container === undefined ? undefined : parseContainerUrl(options.container);

  let child: ContainerProcess | undefined;
  if (options.command !== undefined) {
    child = await spawnContainer({
      command: options.command,
      engineId: resource.slice(resource.lastIndexOf('/') + 1),
      logger: log,
      startTimeoutMs: options.startTimeoutMs ?? 30_000,
    });
  }
  const upstream: Upstream = {
    origin: containerUrl ?? new URL(child?.url ?? ''),
    agent: new Agent({ keepAlive: true }),
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, url: URL, onEnd: (call: ResolvedCall | undefined, status: number, note?: string) => void): Promise<void> => {
    let call: ResolvedCall | undefined;
    // Fires when the caller goes away before the answer is complete: the container request is aborted.
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    try {
      authenticate(req, options.token);
      const where = target(url, resource);
      if (where.endpoint === 'resource') {
        if (req.method !== 'GET') throw new PublicError('methodNotAllowed', `${req.method} is not allowed on the resource: use GET`, { allow: 'GET' });
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(resourceBody) }).end(resourceBody);
        onEnd(undefined, 200);
        return;
      }
      if (req.method !== 'POST') throw new PublicError('methodNotAllowed', `${req.method} is not allowed on ${where.endpoint}: use POST`, { allow: 'POST' });
      checkContentType(req);
      call = resolveCall(await readRequestBody(req), where.endpoint, table, maxDepth);
      const trace = platformTraceHeaders(req.headers);
      const supportNote = `support id ${trace.supportId}`;
      if (call.routing.response === 'unary') {
        const body = await forwardUnary(upstream, call, bodyAsString, trace.headers, gone.signal);
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
        onEnd(call, 200, supportNote);
      } else {
        const outcome = await forwardStream(upstream, call, where.sse, res, trace.headers, gone.signal);
        onEnd(call, 200, outcome.note === undefined ? supportNote : `${outcome.note}, ${supportNote}`);
      }
    } catch (error) {
      if (gone.signal.aborted || res.headersSent) {
        if (!res.writableEnded) res.destroy();
        onEnd(call, res.headersSent ? res.statusCode : 499, 'caller disconnected');
        return;
      }
      const failure =
        error instanceof PublicError ? error : new PublicError('handlerFailed', `The emulator failed: ${(error as Error)?.message ?? String(error)}`);
      // Refused before its body was read (401, 404, 413...): the connection is closed rather than the body drained.
      const close = failure.headers['connection'] === 'close' || bodyPending(req);
      if (close) res.setHeader('connection', 'close');
      const status = statusOf(failure.condition).status;
      onEnd(call, sendStatus(res, failure), failure.note === undefined ? status : `${status} (${failure.note})`);
      if (close) closeAfterAnswer(req, res);
    }
  };

  const allowedHosts = new Set((options.allowedHosts ?? []).map((name) => name.trim().toLowerCase()).filter((name) => name.length > 0));

  const server: Server = createServer(timeouts, (req, res) => {
    const started = performance.now();
    /** Answers before anything is forwarded; a body still on its way is not read. */
    const refuse = (failure: PublicError, endpoint: string): void => {
      const close = bodyPending(req);
      if (close) res.setHeader('connection', 'close');
      const status = sendStatus(res, failure);
      if (close) closeAfterAnswer(req, res);
      log(`${req.method} ${endpoint} - ${status} ${(performance.now() - started).toFixed(1)} ms ${statusOf(failure.condition).status}`);
    };
    const url = requestUrl(req.url);
    if (url === undefined) {
      // node:http passes on targets such as `//[` that URL cannot parse: a client's mistake, not a crash.
      refuse(new PublicError('malformedRequest', 'the request target is not a valid URL path'), '(bad target)');
      return;
    }
    const endpoint = url.pathname.includes(':') ? url.pathname.slice(url.pathname.lastIndexOf(':')) + url.search : 'resource';
    // DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1 sends Host: evil.example.
    if (!hostAllowed(req.headers.host, allowedHosts)) {
      refuse(new PublicError('permissionDenied', `Host ${JSON.stringify(req.headers.host ?? '')} is not a loopback name: start agentgen dev with --allowed-host NAME to accept it`), endpoint);
      return;
    }
    // CORS for loopback pages only, so the generated client also runs from a dev server's page.
    const origin = req.headers.origin;
    const grant = origin !== undefined && loopbackOrigin.test(origin);
    if (grant) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('vary', 'Origin');
    }
    if (req.method === 'OPTIONS') {
      if (origin !== undefined && !grant) {
        refuse(new PublicError('permissionDenied', `Origin ${origin} is not a loopback origin: agentgen dev grants CORS to http(s)://localhost, 127.0.0.1 and [::1] only`), endpoint);
        return;
      }
      res.writeHead(204, {
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'authorization, content-type, traceparent',
        'access-control-max-age': '600',
      }).end();
      return;
    }
    void handle(req, res, url, (call, status, note) => {
      const mode = call === undefined ? '' : ` (${JSON.stringify(call.routing.mode)})`;
      const ms = (performance.now() - started).toFixed(1);
      log(`${req.method} ${endpoint} ${call?.method ?? '-'}${mode} ${status} ${ms} ms${note === undefined ? '' : ` ${note}`}`);
    });
  });

  // HTTP-level client errors (bad framing, duplicate Content-Length, oversized headers, timeouts)
  // get a Status body too, instead of Node's bare 400/431/408, and the connection is closed.
  server.on('clientError', (error: NodeJS.ErrnoException & { reason?: string }, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent === true) {
      socket.destroy();
      return;
    }
    const [condition, message]: [ErrorCondition, string] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? ['headersTooLarge', 'Request headers are too large']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? ['requestTimeout', 'The request was not received in time']
          : ['malformedRequest', `Malformed HTTP request (${error.code ?? 'parse error'}): ${error.reason ?? error.message}`];
    const body = JSON.stringify(statusBody(condition, message));
    const { http } = statusOf(condition);
    socket.end(
      `HTTP/1.1 ${http} ${STATUS_CODES[http] ?? ''}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
    setTimeout(() => socket.destroy(), closeGraceMs).unref();
    log(`- - - ${http} ${statusOf(condition).status} ${message}`);
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? defaultPort, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await child?.close();
    upstream.agent.destroy();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    resource,
    containerUrl: upstream.origin.origin,
    close: () => {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections(); // in-flight streams end; their container requests are aborted
        await closed;
        upstream.agent.destroy();
        await child?.close();
      })();
      return closing;
    },
  };
}

/** The request target as a URL, or undefined when it is not one (`//[`). */
function requestUrl(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://emulator.invalid');
  } catch {
    return undefined;
  }
}
