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
import { maxRequestBody } from '../forward.js';
import { readBoundedBody } from '../request-body.js';
import { PublicError, sendStatus } from '../status.js';
import { internalError } from '../unforeseen-error.js';
import { parseBody } from './fields.js';
import { Memories } from './memories.js';
import { metadataPrefix, serveMetadata } from './metadata-server.js';
import { Operations } from './operations.js';
import { type EngineServices, routeOf } from './routes.js';
import { invalidArgument, notFound, ServiceError, sendJson, sendServiceError } from './service-error.js';
import { Sessions } from './sessions.js';

export interface EngineName {
  readonly project: string;
  readonly location: string;
  readonly engineId: string;
}

/** The parts of `projects/{p}/locations/{l}/reasoningEngines/{id}`, or undefined for another shape. */
export function parseEngineName(resource: string): EngineName | undefined {
  const match = /^projects\/([^/]+)\/locations\/([^/]+)\/reasoningEngines\/([^/:]+)$/.exec(resource);
  return match === null ? undefined : { project: match[1] as string, location: match[2] as string, engineId: match[3] as string };
}

export interface EngineEndpointsOptions {
  /** The engine served (a reasoningEngine name); every other engine is NOT_FOUND. */
  readonly resource: string;
  /** The core's check of `Authorization` (throws PublicError). */
  readonly authenticate: (authorization: string | undefined) => void;
  /** The token the metadata server hands out: one `authenticate` accepts. */
  readonly token: string;
  readonly log: (line: string) => void;
}

/** A request handler for the REST face's hook: true when it took (and answered) the request. */
export type EngineEndpoints = (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;

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

  return (req, res, url) => {
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
        if (engine !== options.resource) throw notFound(`ReasoningEngine not found: agentgen dev serves ${options.resource}.`);
        const route = routeOf(req.method ?? 'GET', tail, services);
        label = `engine ${route.label}`;
        const type = req.headers['content-type'];
        if (type !== undefined && !/^application\/json\s*(;|,|$)/i.test(type)) throw invalidArgument('Content-Type must be application/json.');
        const body = parseBody((await readBoundedBody(req, tooLarge)).toString('utf8'));
        status = sendJson(res, 200, route.run({ version, query: url.searchParams, body, now: Date.now() }));
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
  };
}

const tooLarge = (): ServiceError => new ServiceError('OUT_OF_RANGE', `The request body exceeds the limit of ${maxRequestBody} bytes.`, 413);
