/**
 * The engine's own services and the metadata server, on dev's HTTP port: the REST face offers
 * each request here first (its one hook) and this takes those under
 * `/{v1,v1beta1}/projects/P/locations/L/reasoningEngines/ID/{sessions,memories,operations}…` and
 * `/computeMetadata/…`, so `@google-cloud/vertexai`'s client, given dev's address as its
 * `apiEndpoint`, finds the Sessions and Memory Bank services of the engine dev serves. Every engine
 * call needs the bearer token the core accepts; state lives in this object, per emulator.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeWithoutReading } from '@agentgen/runtime/server';
import type { ApiDispatch } from '../google-api/api-request.js';
import { parseEngineName } from '../google-api/engine-name.js';
import { Operations } from '../google-api/operations.js';
import { readBoundedBody } from '../google-api/request-body.js';
import { invalidArgument, notFound, ServiceError, sendJson, sendServiceError } from '../google-api/service-error.js';
import { PublicError, sendStatus } from '../google-api/status.js';
import { internalError } from '../google-api/unforeseen-error.js';
import { maxRequestBody } from '../limits.js';
import { parseBody } from '../proto/fields.js';
import { Memories } from './memories.js';
import { metadataPrefix, serveMetadata } from './metadata-server.js';
import { type EngineServices, routeOf } from './routes.js';
import { Sessions } from './sessions.js';

export interface EngineEndpointsOptions {
  /** The engine served (a reasoningEngine name); every other engine is NOT_FOUND. */
  readonly resource: string;
  /** The core's check of `Authorization` (throws PublicError). */
  readonly authenticate: (authorization: string | undefined) => void;
  /** The token the metadata server hands out: one `authenticate` accepts. */
  readonly token: string;
  readonly log: (line: string) => void;
}

/**
 * A request handler for the REST face's hook (true when it took, and answers, the request), and
 * `dispatch`, the same services for the gRPC face's transcoded calls.
 */
export type EngineEndpoints = ((req: IncomingMessage, res: ServerResponse, url: URL) => boolean) & { readonly dispatch: ApiDispatch };

/** The path after the version of a call to an engine's services: the engine, and what follows it. */
const engineTail = /^(projects\/[^/]+\/locations\/[^/]+\/reasoningEngines\/[^/:]+)((?:\/sessions|\/memories|\/operations)(?:[/:].*)?)$/;

const enginePath = /^\/(v1|v1beta1)\/(projects\/[^/]+\/locations\/[^/]+\/reasoningEngines\/[^/:]+)((?:\/sessions|\/memories|\/operations)(?:[/:].*)?)$/;

/** The service account dev's metadata server names: no such account exists, and `.invalid` says so. */
const devServiceAccount = 'agentgen-dev@local.invalid';

export function createEngineEndpoints(options: EngineEndpointsOptions): EngineEndpoints {
  const name = parseEngineName(options.resource);
  if (name === undefined)
    throw new TypeError(`The engine services need a resource named projects/P/locations/L/reasoningEngines/ID, got ${JSON.stringify(options.resource)}`);
  const operations = new Operations();
  const sessions = new Sessions(options.resource, operations);
  const services: EngineServices = { engine: options.resource, sessions, operations, memories: new Memories(options.resource, operations, sessions) };
  const identity = { project: name.project, token: options.token, email: devServiceAccount };

  /** The gRPC face's call: routed and run as the REST handler below routes and runs a request. */
  const dispatch: ApiDispatch = async (request) => {
    const match = engineTail.exec(request.name);
    if (match === null || match[1] !== options.resource) throw notFound(engineNotFound(match?.[1], options.resource));
    const route = routeOf(request.method, match[2] as string, services);
    return route.run({ version: request.version, query: request.query, body: request.body, now: Date.now() });
  };

  return Object.assign(
    (req: IncomingMessage, res: ServerResponse, url: URL): boolean => {
      const started = performance.now();
      const took = (what: string, status: number): void => options.log(`${req.method} ${what} ${status} ${(performance.now() - started).toFixed(1)} ms`);
      if (url.pathname.startsWith(metadataPrefix) || url.pathname === metadataPrefix.slice(0, -1)) {
        req.resume(); // a GET has no body worth reading
        took(`metadata ${url.pathname.slice(metadataPrefix.length - 1)}`, serveMetadata(req, res, url, identity));
        return true;
      }
      let path: string;
      try {
        path = decodeURIComponent(url.pathname);
      } catch {
        return false; // the REST face answers a malformed path
      }
      const match = enginePath.exec(path);
      if (match === null) return false;
      const [, version, engine, tail] = match as unknown as [string, string, string, string];
      let label = 'engine';
      void (async () => {
        let status: number;
        try {
          options.authenticate(req.headers.authorization);
          // Reached only for an engine neither this one nor the control plane's (which routes its own first).
          if (engine !== options.resource) throw notFound(engineNotFound(engine, options.resource));
          const route = routeOf(req.method ?? 'GET', tail, services);
          label = `engine ${route.label}`;
          const type = req.headers['content-type'];
          if (type !== undefined && !/^application\/json\s*(;|,|$)/i.test(type)) throw invalidArgument('Content-Type must be application/json.');
          const body = parseBody((await readBoundedBody(req, tooLarge)).toString('utf8'));
          status = sendJson(res, 200, await route.run({ version, query: url.searchParams, body, now: Date.now() }));
        } catch (error) {
          if (!req.complete) closeWithoutReading(req, res);
          status =
            error instanceof ServiceError
              ? sendServiceError(res, error)
              : error instanceof PublicError
                ? sendStatus(res, error)
                : sendServiceError(res, internalError(error, "agentgen dev's engine services", options.log));
        }
        took(label, status);
      })();
      return true;
    },
    { dispatch },
  );
}

const tooLarge = (): ServiceError => new ServiceError('OUT_OF_RANGE', `The request body exceeds the limit of ${maxRequestBody} bytes.`, 413);

/** The 404 of an engine that is neither the one dev started with nor one deployed to it. */
function engineNotFound(engine: string | undefined, startup: string): string {
  const named = engine === undefined ? 'ReasoningEngine' : `ReasoningEngine ${engine}`;
  return `${named} not found: agentgen dev has the engine it started with (${startup}) and those deployed to it (agentgen deploy --api-endpoint).`;
}
