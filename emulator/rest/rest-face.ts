/**
 * The emulator's REST face: the runtime's public HTTP API (`:query`, `:streamQuery`, `GET` of the
 * resource) over the core, with the edge's own checks: the `Host` allow-list, CORS for loopback
 * pages, bounded bodies, and `google.rpc.Status` bodies for every refusal, HTTP-level ones included.
 */
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { closeWithoutReading } from '@agentgen/runtime/server';
import type { EmulatorCore } from '../core/core.js';
import { parseEngineName } from '../google-api/engine-name.js';
import { PublicError, sendStatus, statusOf } from '../google-api/status.js';
import { answerCall, bodyPending, type CallContext } from './call-answer.js';
import { CallsInFlight } from './calls-in-flight.js';
import { hostCheck, loopbackOrigin } from './host-allow-list.js';
import { type QueryTargetOf, type Target, target } from './query-route.js';
import { type ParsedTarget, RequestTargets } from './request-targets.js';
import { answerClientError, refuseConnect } from './socket-answers.js';

/** A hook offered a request once the `Host` is checked: true when it took (and answers) the request. */
type RequestHook = (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;

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
  readonly pages?: RequestHook;
  /**
   * The engine's own services and the metadata server (engine-services/serve.ts): offered every
   * request once the `Host` is checked; returns true when it took (and answers) the request.
   */
  readonly engineServices?: RequestHook;
  /**
   * The control plane's management routes (control-plane/http.ts): offered every request once the
   * `Host` is checked, before `engineServices`; returns true when it took (and answers) the request.
   */
  readonly controlPlane?: RequestHook;
  /** Where a query on a name other than the startup resource goes (the control plane's engines and revisions). */
  readonly queryTarget?: QueryTargetOf;
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

/** Answers before anything is forwarded; a body still on its way is not read. Returns the log line. */
function refuse(req: IncomingMessage, res: ServerResponse, failure: PublicError, endpoint: string, started: number): string {
  if (bodyPending(req)) closeWithoutReading(req, res);
  const status = sendStatus(res, failure);
  return `${req.method} ${endpoint} - ${status} ${(performance.now() - started).toFixed(1)} ms ${statusOf(failure.condition).status}`;
}

/** Why the edge refuses a request before any route sees it (a target that is no URL, no Host, a Host not allowed), or undefined. */
function edgeRefusal(
  req: IncomingMessage,
  parsed: ParsedTarget<Target> | undefined,
  hostIsAllowed: (host: string | undefined) => boolean,
): PublicError | undefined {
  // node:http passes on targets such as `//[` that URL cannot parse: a client's mistake, not a crash.
  if (parsed === undefined) return new PublicError('malformedRequest', 'the request target is not a valid URL path');
  if (req.headers.host === undefined && req.httpVersion === '1.1') {
    return new PublicError('malformedRequest', 'The request has no Host header, which HTTP/1.1 requires', { connection: 'close' });
  }
  // DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1 sends Host: evil.example.
  if (!hostIsAllowed(req.headers.host)) {
    return new PublicError(
      'permissionDenied',
      `Host ${JSON.stringify(req.headers.host ?? '')} is not a loopback name: start agentgen dev with --allowed-host NAME to accept it`,
    );
  }
  return undefined;
}

/**
 * CORS for loopback pages only, so the generated client also runs from a dev server's page: the
 * grant's headers, and the answer to a preflight. Returns the refusal of a foreign origin's
 * preflight, true when it answered the preflight, false when the request goes on.
 */
function answerCors(req: IncomingMessage, res: ServerResponse): PublicError | boolean {
  const origin = req.headers.origin;
  const grant = origin !== undefined && loopbackOrigin.test(origin);
  if (grant) {
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('vary', 'Origin');
  }
  if (req.method !== 'OPTIONS') return false;
  if (origin !== undefined && !grant) {
    return new PublicError(
      'permissionDenied',
      `Origin ${origin} is not a loopback origin: agentgen dev grants CORS to http(s)://localhost, 127.0.0.1 and [::1] only`,
    );
  }
  res
    .writeHead(204, {
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers': 'authorization, content-type, traceparent',
      'access-control-max-age': '600',
    })
    .end();
  return true;
}

/**
 * Offers the request to the hooks (control plane, engine services, pages); true when one took it.
 * A query of the startup resource already routed (see `routeOf`) is the REST face's: neither the
 * control plane nor the engine services take `/v1/{engine}:verb` (the engine id holds no `:`), so
 * they are not asked again for each call.
 */
function offeredToHooks(req: IncomingMessage, res: ServerResponse, parsed: ParsedTarget<Target>, options: RestFaceOptions, startupIsEngine: boolean): boolean {
  const url = parsed.url;
  const known = parsed.route !== undefined && parsed.route.endpoint !== 'resource' && startupIsEngine;
  if (!known && options.controlPlane?.(req, res, url) === true) return true;
  if (!known && options.engineServices?.(req, res, url) === true) return true;
  // Pages beside the API (the console): GET and HEAD outside /v1/, after the Host check.
  return options.pages !== undefined && (req.method === 'GET' || req.method === 'HEAD') && !url.pathname.startsWith('/v1/') && options.pages(req, res, url);
}

/**
 * Where a request goes (`target`). A route of the startup resource depends on its target alone,
 * so it is worked out once per target; a control-plane engine's is asked each time, since
 * engines and their revisions come and go.
 */
function routeCache(core: EmulatorCore, queryTarget: QueryTargetOf | undefined): (parsed: ParsedTarget<Target>) => Target {
  return (parsed) => {
    if (parsed.route !== undefined) return parsed.route;
    const where = target(parsed.url, core, queryTarget);
    if (where.fixed) parsed.route = where;
    return where;
  };
}

/** The REST face: its server and what shutdown does to its calls. */
export function createRestFace(core: EmulatorCore, options: RestFaceOptions): RestFace {
  const log = options.log;
  const context: CallContext = { core, log, nameReplicas: options.nameReplicas, calls: new CallsInFlight(), routeOf: routeCache(core, options.queryTarget) };
  /** The request targets parsed so far, with the route each names when it is one of the startup resource's (cached: see `routeOf`). */
  const targets = new RequestTargets<Target>();
  /** Whether the startup resource is named as an engine (projects/P/locations/L/reasoningEngines/ID), as the control plane's routes are. */
  const startupIsEngine = parseEngineName(core.resource) !== undefined;
  const hostIsAllowed = hostCheck(options.allowedHosts);

  // node:http would answer a request without Host with a bare 400: dev answers it below, as a Status.
  const server: Server = createServer({ ...options.timeouts, requireHostHeader: false }, (req, res) => {
    const started = performance.now();
    const parsed = targets.parse(req.url);
    const refused = edgeRefusal(req, parsed, hostIsAllowed);
    if (refused !== undefined || parsed === undefined) return log(refuse(req, res, refused as PublicError, parsed?.endpoint ?? '(bad target)', started));
    // Before the hooks: the control plane's and engine services' answers carry the grant too.
    const cors = answerCors(req, res);
    if (cors instanceof PublicError) return log(refuse(req, res, cors, parsed.endpoint, started));
    if (cors) return;
    if (offeredToHooks(req, res, parsed, options, startupIsEngine)) return;
    void answerCall(context, req, res, parsed, (call, status, note) => {
      const ms = (performance.now() - started).toFixed(1);
      // `name ("mode")`, as written once per declared method.
      const what = call === undefined ? '-' : call.declared.logLabel;
      log(`${req.method} ${parsed.endpoint} ${what} ${status} ${ms} ms${note === undefined ? '' : ` ${note}`}`);
    });
  });
  server.on('connect', refuseConnect(log));
  server.on('clientError', answerClientError(log));

  return {
    server,
    giveUpCalls: () => {
      for (const giveUp of context.calls.all()) giveUp();
    },
  };
}
