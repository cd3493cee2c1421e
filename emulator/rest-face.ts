/**
 * The emulator's REST face: the runtime's public HTTP API (`:query`, `:streamQuery`, `GET` of the
 * resource) over the core, with the edge's own checks: the `Host` allow-list, CORS for loopback
 * pages, bounded bodies, and `google.rpc.Status` bodies for every refusal, HTTP-level ones included.
 */
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { checkContentType as checkJsonContentType, closeWithoutReading, rawHeaderList, refusedBodyGraceMs } from '@agentgen/runtime/server';
import type { ErrorCondition } from '../spec/index.js';
import { CallGone } from './call-signal.js';
import { CallsInFlight } from './calls-in-flight.js';
import type { EmulatorCore } from './core.js';
import { parseEngineName } from './engine-services/serve.js';
import type { PublicEndpoint, ResolvedCall } from './envelope.js';
import { maxRequestBody, type StreamSink } from './forward.js';
import { passthroughPath, passthroughRequest, relayAnswer } from './passthrough.js';
import type { Replica } from './replicas.js';
import { readBoundedBody } from './request-body.js';
import { RequestTargets } from './request-targets.js';
import { restStreamSink } from './rest-stream.js';
import { PublicError, sendStatus, statusBody, statusOf } from './status.js';
import { platformTraceHeaders } from './trace-headers.js';
import { reportUnforeseen } from './unforeseen-error.js';

export interface RestFaceOptions {
  /** Host names accepted besides the loopback ones (`--allowed-host`). */
  readonly allowedHosts?: readonly string[];
  /** node:http's header and request timeouts (limits.ts). */
  readonly timeouts: ServerOptions;
  /** One line per call. */
  readonly log: (line: string) => void;
  /** Whether the log line names the replica that served the call (when there are several). */
  readonly nameReplicas: boolean;
  /**
   * Offered GET and HEAD requests outside `/v1/` once the `Host` is checked (the console's pages):
   * returns true when it answered the request, false to let the API answer 404.
   */
  readonly pages?: (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;
  /**
   * The engine's own services and the metadata server (engine-services/serve.ts): offered every
   * request once the `Host` is checked; returns true when it took (and answers) the request.
   */
  readonly engineServices?: (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;
  /**
   * The control plane's management routes (control-plane/http.ts): offered every request once the
   * `Host` is checked, before `engineServices`; returns true when it took (and answers) the request.
   */
  readonly controlPlane?: (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;
  /** Where a query on a name other than the startup resource goes (the control plane's engines and revisions). */
  readonly queryTarget?: (version: 'v1' | 'v1beta1', name: string) => { readonly core: EmulatorCore; readonly note: string | undefined } | undefined;
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);
const loopbackOrigin = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

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

/**
 * `Host` values found allowed, so that the check (a regular expression) runs once per value
 * rather than once per call; bounded as the request targets are (request-targets.ts). Only
 * allowed values are kept: the answer for a value never changes while dev runs.
 */
function allowedHostsMemo(allowed: ReadonlySet<string>): (host: string | undefined) => boolean {
  const seen = new Set<string>();
  return (host) => {
    if (host !== undefined && seen.has(host)) return true;
    if (!hostAllowed(host, allowed)) return false;
    if (host !== undefined && host.length <= 300) {
      if (seen.size >= 64) seen.clear();
      seen.add(host);
    }
    return true;
  };
}

/** An answer given before the request's body was read: that body is not read on (it may be endless). */
function bodyPending(req: IncomingMessage): boolean {
  return !req.complete && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0);
}

/**
 * The request body, bounded: a body over the limit is refused without reading the rest, and the
 * connection is closed after the 413 (reading an endless upload to its end is what an attacker wants).
 */
function readRequestBody(req: IncomingMessage): Promise<Buffer> {
  return readBoundedBody(req, bodyTooLarge);
}

/** The refusal of a body over the limit (`declared`: its Content-Length, when it said so); made once, not per call. */
function bodyTooLarge(declared: number | undefined): PublicError {
  const close = { connection: 'close' };
  return declared === undefined
    ? new PublicError('bodyTooLarge', `Request body exceeds the limit of ${maxRequestBody} bytes`, close)
    : new PublicError('bodyTooLarge', `Request body of ${declared} bytes exceeds the limit of ${maxRequestBody}`, close);
}

interface Target {
  readonly endpoint: PublicEndpoint | 'resource';
  readonly sse: boolean;
  /** The core that answers: the startup resource's, or a control-plane revision's. */
  readonly core: EmulatorCore;
  /** For the log line: the revision that answered, when the control plane chose it. */
  readonly note: string | undefined;
  /**
   * Routed by the REST face alone (the startup resource under `/v1/`), not asked of the control
   * plane: the same for every request to the same target, for as long as dev runs.
   */
  readonly fixed: boolean;
}

/**
 * Maps a path to a resource or one of its two query endpoints; anything else is NOT_FOUND. The
 * startup resource answers under `/v1/` as it always has; any other name (and `/v1beta1/`) is
 * asked of the control plane (`queryTarget`), which routes an engine's calls to its revisions.
 */
function target(url: URL, core: EmulatorCore, queryTarget: RestFaceOptions['queryTarget']): Target {
  const resource = core.resource;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    throw new PublicError('unknownPath', `Malformed path ${url.pathname}`);
  }
  const versioned = /^\/(v1|v1beta1)\/(.*)$/.exec(path);
  if (versioned === null || (versioned[1] === 'v1beta1' && queryTarget === undefined)) {
    throw new PublicError('unknownPath', `No such path ${url.pathname}: the API is under /v1/${resource}`);
  }
  const version = versioned[1] as 'v1' | 'v1beta1';
  const rest = versioned[2] as string;
  const colon = rest.lastIndexOf(':');
  const name = colon > rest.lastIndexOf('/') ? rest.slice(0, colon) : rest;
  const verb = colon > rest.lastIndexOf('/') ? rest.slice(colon) : '';
  const asked = version === 'v1' && name === resource ? undefined : verb === '' ? undefined : queryTarget?.(version, name);
  const routed =
    version === 'v1' && name === resource
      ? { core, note: undefined, fixed: true }
      : asked === undefined
        ? undefined
        : { core: asked.core, note: asked.note, fixed: false };
  if (routed === undefined) throw new PublicError('unknownPath', `Resource ${name} not found: this emulator serves ${resource}`);
  if (verb === '') return { endpoint: 'resource', sse: false, ...routed };
  if (verb !== ':query' && verb !== ':streamQuery') {
    throw new PublicError('unknownPath', `No such method ${verb} on ${name}: use :query or :streamQuery`);
  }
  const alt = url.searchParams.get('alt');
  if (alt !== null && alt !== 'sse' && alt !== 'json') throw new PublicError('invalidEnvelope', `Unsupported alt=${alt}: use alt=sse or none`);
  if (alt === 'sse' && verb === ':query') throw new PublicError('invalidEnvelope', 'alt=sse applies to :streamQuery only');
  return { endpoint: verb, sse: alt === 'sse', ...routed };
}

/**
 * Absent is tolerated (curl -d without -H); anything other than JSON is refused clearly. The
 * container's own rule decides what JSON is (application/json with parameters, `+json` types, a
 * list of them), so dev and the container never disagree on a body.
 */
function checkContentType(req: IncomingMessage): void {
  const message = checkJsonContentType(rawHeaderList(req.rawHeaders, 'content-type'));
  if (message !== undefined) throw new PublicError('unsupportedMediaType', message);
}

export interface RestFace {
  /** Not yet listening. */
  readonly server: Server;
  /**
   * Shutdown: every call in flight is answered UNAVAILABLE (a Status body, or a stream's last
   * line) and its container request aborted, so a caller sees an error, not a reset. A passthrough
   * answer already under way is cut (its bytes are the container's, dev cannot add a line).
   */
  giveUpCalls(): void;
}

/** The REST face: its server and what shutdown does to its calls. */
export function createRestFace(core: EmulatorCore, options: RestFaceOptions): RestFace {
  /** What gives up each call in flight (see `giveUpCalls`). */
  const calls = new CallsInFlight();
  const log = options.log;
  /** `revision`: which of a control-plane engine's revisions answered. */
  const noteOf = (revision: string | undefined, replica: Replica, note: string | undefined, supportNote: string): string => {
    let text = supportNote;
    if (note !== undefined) text = `${note}, ${text}`;
    if (options.nameReplicas) text = `${replica.name}, ${text}`;
    return revision === undefined ? text : `${revision}, ${text}`;
  };
  /** The request targets parsed so far, with the route each names when it is one of the startup resource's (cached: see `routeOf`). */
  const targets = new RequestTargets<Target>();
  /** Whether the startup resource is named as an engine (projects/P/locations/L/reasoningEngines/ID), as the control plane's routes are. */
  const startupIsEngine = parseEngineName(core.resource) !== undefined;
  /**
   * Where a request goes (`target`). A route of the startup resource depends on its target alone,
   * so it is worked out once per target; a control-plane engine's is asked each time, since
   * engines and their revisions come and go.
   */
  const routeOf = (parsed: { readonly url: URL; route: Target | undefined }): Target => {
    if (parsed.route !== undefined) return parsed.route;
    const where = target(parsed.url, core, options.queryTarget);
    if (where.fixed) parsed.route = where;
    return where;
  };

  const handle = async (
    req: IncomingMessage,
    res: ServerResponse,
    parsed: { readonly url: URL; route: Target | undefined },
    onEnd: (call: ResolvedCall | undefined, status: number, note?: string) => void,
  ): Promise<void> => {
    const url = parsed.url;
    let call: ResolvedCall | undefined;
    // Fires when the caller goes away before the answer is complete: the container request is aborted.
    const gone = new CallGone();
    let sink: StreamSink | undefined;
    const giveUp = (): void => {
      const message = 'agentgen dev is shutting down';
      if (!res.headersSent) sendStatus(res, new PublicError('shuttingDown', message, { connection: 'close' }));
      else if (sink !== undefined && !res.writableEnded) sink.end(JSON.stringify(statusBody('shuttingDown', message)));
      // After the answer: the abort's own path then finds the response ended and leaves it be.
      gone.abort();
    };
    const inFlight = calls.add(giveUp);
    res.once('close', () => {
      inFlight.remove();
      if (!res.writableFinished) gone.abort();
    });
    try {
      core.authenticate(req.headers.authorization);
      const passthrough = passthroughPath(url, core.resource);
      if (passthrough !== undefined) {
        const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
        const payload = hasBody ? await readRequestBody(req) : Buffer.alloc(0);
        const request = passthroughRequest(req, passthrough, payload, platformTraceHeaders(req.headers).headers);
        const answer = await core.passthrough(request, gone);
        onEnd(undefined, await relayAnswer(answer, res, req.method === 'HEAD'), options.nameReplicas ? answer.replica.name : undefined);
        return;
      }
      const where = routeOf(parsed);
      if (where.endpoint === 'resource') {
        if (req.method !== 'GET') throw new PublicError('methodNotAllowed', `${req.method} is not allowed on the resource: use GET`, { allow: 'GET' });
        const resourceBody = core.descriptionJson;
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(resourceBody) }).end(resourceBody);
        onEnd(undefined, 200);
        return;
      }
      if (req.method !== 'POST') throw new PublicError('methodNotAllowed', `${req.method} is not allowed on ${where.endpoint}: use POST`, { allow: 'POST' });
      checkContentType(req);
      call = where.core.resolveBody((await readRequestBody(req)).toString('utf8'), where.endpoint);
      const trace = platformTraceHeaders(req.headers);
      const supportNote = `support id ${trace.supportId}`;
      if (call.routing.response === 'unary') {
        const outcome = await where.core.unary(call, trace.headers, gone);
        // What JSON.stringify({ output }) writes, without the wrapping object.
        const body = `{"output":${JSON.stringify(outcome.output)}}`;
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
        onEnd(call, 200, noteOf(where.note, outcome.replica, undefined, supportNote));
      } else {
        sink = restStreamSink(res, where.sse);
        const outcome = await where.core.stream(call, sink, trace.headers, gone);
        onEnd(call, 200, noteOf(where.note, outcome.replica, outcome.note, supportNote));
      }
    } catch (error) {
      if (gone.aborted || res.headersSent) {
        if (!res.writableEnded) res.destroy();
        onEnd(call, res.headersSent ? res.statusCode : 499, 'caller disconnected');
        return;
      }
      const failure = error instanceof PublicError ? error : new PublicError('handlerFailed', reportUnforeseen(error, 'agentgen dev', log));
      // Refused before its body was read (401, 404, 413...): the connection is closed rather than the body drained.
      if (failure.headers['connection'] === 'close' || bodyPending(req)) closeWithoutReading(req, res);
      const status = statusOf(failure.condition).status;
      onEnd(call, sendStatus(res, failure), failure.note === undefined ? status : `${status} (${failure.note})`);
    }
  };

  const allowedHosts = new Set((options.allowedHosts ?? []).map((name) => name.trim().toLowerCase()).filter((name) => name.length > 0));
  const hostIsAllowed = allowedHostsMemo(allowedHosts);

  // node:http would answer a request without Host with a bare 400: dev answers it below, as a Status.
  const server: Server = createServer({ ...options.timeouts, requireHostHeader: false }, (req, res) => {
    const started = performance.now();
    /** Answers before anything is forwarded; a body still on its way is not read. */
    const refuse = (failure: PublicError, endpoint: string): void => {
      if (bodyPending(req)) closeWithoutReading(req, res);
      const status = sendStatus(res, failure);
      log(`${req.method} ${endpoint} - ${status} ${(performance.now() - started).toFixed(1)} ms ${statusOf(failure.condition).status}`);
    };
    const parsed = targets.parse(req.url);
    if (parsed === undefined) {
      // node:http passes on targets such as `//[` that URL cannot parse: a client's mistake, not a crash.
      refuse(new PublicError('malformedRequest', 'the request target is not a valid URL path'), '(bad target)');
      return;
    }
    const { url, endpoint } = parsed;
    if (req.headers.host === undefined && req.httpVersion === '1.1') {
      refuse(new PublicError('malformedRequest', 'The request has no Host header, which HTTP/1.1 requires', { connection: 'close' }), endpoint);
      return;
    }
    // DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1 sends Host: evil.example.
    if (!hostIsAllowed(req.headers.host)) {
      refuse(
        new PublicError(
          'permissionDenied',
          `Host ${JSON.stringify(req.headers.host ?? '')} is not a loopback name: start agentgen dev with --allowed-host NAME to accept it`,
        ),
        endpoint,
      );
      return;
    }
    // A query of the startup resource already routed (see `routeOf`) is the REST face's: neither
    // the control plane nor the engine services take `/v1/{engine}:verb` (the engine id holds no
    // `:`), so they are not asked again for each call.
    const known = parsed.route !== undefined && parsed.route.endpoint !== 'resource' && startupIsEngine;
    if (!known && options.controlPlane?.(req, res, url) === true) return;
    if (!known && options.engineServices?.(req, res, url) === true) return;
    // Pages beside the API (the console): GET and HEAD outside /v1/, after the Host check.
    if (options.pages !== undefined && (req.method === 'GET' || req.method === 'HEAD') && !url.pathname.startsWith('/v1/') && options.pages(req, res, url)) {
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
        refuse(
          new PublicError(
            'permissionDenied',
            `Origin ${origin} is not a loopback origin: agentgen dev grants CORS to http(s)://localhost, 127.0.0.1 and [::1] only`,
          ),
          endpoint,
        );
        return;
      }
      res
        .writeHead(204, {
          'access-control-allow-methods': 'GET, POST',
          'access-control-allow-headers': 'authorization, content-type, traceparent',
          'access-control-max-age': '600',
        })
        .end();
      return;
    }
    void handle(req, res, parsed, (call, status, note) => {
      const ms = (performance.now() - started).toFixed(1);
      // `name ("mode")`, as written once per declared method.
      const what = call === undefined ? '-' : call.declared.logLabel;
      log(`${req.method} ${endpoint} ${what} ${status} ${ms} ms${note === undefined ? '' : ` ${note}`}`);
    });
  });

  // Without a listener node:http drops a CONNECT's socket unanswered: a 405 Status instead.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    const message = "CONNECT is not allowed: this is the runtime's public API, not a proxy";
    const http = answerOnSocket(socket, 'methodNotAllowed', message, 'allow: GET, HEAD, POST, OPTIONS\r\n');
    log(`CONNECT - - ${http} ${statusOf('methodNotAllowed').status} ${message}`);
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
    const http = answerOnSocket(socket, condition, message, '');
    setTimeout(() => socket.destroy(), refusedBodyGraceMs).unref();
    log(`- - - ${http} ${statusOf(condition).status} ${message}`);
  });

  return {
    server,
    giveUpCalls: () => {
      for (const giveUp of calls.all()) giveUp();
    },
  };
}

/** A whole Status answer written to a socket that has no response object (client errors, CONNECT); returns its HTTP status. */
function answerOnSocket(socket: Socket, condition: ErrorCondition, message: string, headers: string): number {
  const body = JSON.stringify(statusBody(condition, message));
  const { http } = statusOf(condition);
  socket.end(
    `HTTP/1.1 ${http} ${STATUS_CODES[http] ?? ''}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\n${headers}connection: close\r\n\r\n${body}`,
  );
  return http;
}
