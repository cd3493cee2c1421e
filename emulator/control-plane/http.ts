/**
 * The control plane on dev's HTTP port: the REST face offers it each request (after the `Host`
 * check, before the startup engine's services), and it takes the management paths under `/v1/`
 * and `/v1beta1/` (reasoningEngines, their operations and runtimeRevisions, and the Sessions and
 * Memory Bank of the engines it created). Queries (`:query`, `:streamQuery`) stay with the REST
 * face, which asks `ControlPlane.queryTarget` where they go. Every call needs the bearer token the
 * startup core accepts; answers and refusals are ProtoJSON and `google.rpc.Status`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeWithoutReading } from '@agentgen/runtime/server';
import type { EngineEndpoints } from '../engine-services/serve.js';
import type { ApiRequest } from '../google-api/api-request.js';
import { readBoundedBody } from '../google-api/request-body.js';
import { invalidArgument, notFound, ServiceError, sendJson, sendServiceError } from '../google-api/service-error.js';
import { PublicError, sendStatus } from '../google-api/status.js';
import { internalError } from '../google-api/unforeseen-error.js';
import { notServed, unknownCollection, unservedEngineVerbs } from '../google-api/unserved.js';
import { maxRequestBody } from '../limits.js';
import { parseBody } from '../proto/fields.js';
import type { ApiVersion } from '../proto/protos.js';
import { type ControlPlane, loadProtoReaders } from './control-plane.js';
import { checkPathIds } from './resource-ids.js';

export type ControlPlaneRoutes = (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;

const engine = 'projects/[^/:]+/locations/[^/:]+/reasoningEngines/[^/:]+';
const collectionPath = /^projects\/[^/:]+\/locations\/[^/:]+\/reasoningEngines$/;
const enginePath = new RegExp(`^(${engine})$`);
const operationPath = new RegExp(`^(${engine})/operations/[^/:]+$`);
const revisionsPath = new RegExp(`^(${engine})/runtimeRevisions$`);
const revisionPath = new RegExp(`^(${engine})/runtimeRevisions/[^/:]+$`);
const servicesPath = new RegExp(`^(${engine})/(sessions|memories|operations)([/:].*)?$`);
/** A method of the engine itself (`{engine}:verb`) and a collection under it, for the 501s of google-api/unserved.ts. */
const engineVerbPath = new RegExp(`^(${engine}):([A-Za-z]+)$`);
const collectionUnder = new RegExp(`^(${engine})/([^/:]+)([/:].*)?$`);
/** Express mode's paths (`/v1beta1/reasoningEngines/…`, no project or location), which dev does not serve. */
const expressPath = /^reasoningEngines([/:].*)?$/;

const tooLarge = (): ServiceError => new ServiceError('OUT_OF_RANGE', `The request body exceeds the limit of ${maxRequestBody} bytes.`, 413);

type Handler = () => Promise<object> | object;

/** A wrong HTTP verb: 405 with `Allow`, as the REST face answers one. */
class WrongMethod extends ServiceError {
  constructor(
    method: string,
    what: string,
    readonly allow: readonly string[],
  ) {
    super('UNIMPLEMENTED', `${method} is not allowed on ${what}: use ${allow.join(' or ')}.`, 405);
  }
}

function only(method: string, byVerb: Readonly<Record<string, Handler>>, what: string): Handler {
  const handler = byVerb[method];
  if (handler === undefined) {
    return () => {
      throw new WrongMethod(method, what, Object.keys(byVerb));
    };
  }
  return handler;
}

/** A management call the control plane takes: what the log names it, and what answers it. */
interface Route {
  readonly label: string;
  readonly handler: Handler;
}

/** What a route reads of the request. */
interface Asked {
  readonly version: ApiVersion;
  /** The path after the version, decoded. */
  readonly name: string;
  readonly method: string;
  readonly url: URL;
  /** The body, checked and parsed; read only by the verbs that take one. */
  readonly body: () => Promise<Record<string, unknown>>;
}

/** A NOT_FOUND the control plane answers itself (the engine is not one of its own, or the version has no such collection). */
function notFoundRoute(message: string): Route {
  return {
    label: 'control plane',
    handler: () => {
      throw notFound(message);
    },
  };
}

/** A call of the platform's that dev does not serve: 501 UNIMPLEMENTED saying what and where the docs list it. */
function unservedRoute(what: string): Route {
  return {
    label: 'control plane',
    handler: () => {
      throw notServed(what);
    },
  };
}

/**
 * The management route `asked` names; an engine's own services (Sessions, Memory Bank) for a path
 * under one of its engines; undefined for a path that is not the control plane's.
 */
function routeOf(plane: ControlPlane, asked: Asked): Route | { readonly services: EngineEndpoints } | undefined {
  const { version, name, method, url, body } = asked;
  let match: RegExpExecArray | null;
  if (collectionPath.test(name)) {
    const parent = name.slice(0, -'/reasoningEngines'.length);
    const label = 'reasoningEngines';
    return {
      label,
      handler: only(method, { POST: async () => plane.create(version, parent, await body()), GET: () => plane.list(version, parent, url.searchParams) }, label),
    };
  }
  if ((match = enginePath.exec(name)) !== null) {
    const target = match[1] as string;
    // The startup engine under /v1/ answers as it always has (the REST face's GET, its 405s); only a change is refused here.
    if (target === plane.startupName && version === 'v1' && method !== 'PATCH' && method !== 'DELETE') return undefined;
    const label = 'reasoningEngine';
    const byVerb = {
      GET: () => plane.get(version, target),
      PATCH: async () => plane.patch(version, target, await body(), url.searchParams),
      DELETE: () => plane.delete(version, target, url.searchParams),
    };
    return { label, handler: only(method, byVerb, label) };
  }
  if ((match = operationPath.exec(name)) !== null && plane.operation(name) !== undefined) {
    const byVerb = {
      GET: () => plane.operation(name) as object,
      DELETE: () => {
        throw notServed('operations.delete (an operation is kept while dev runs)');
      },
    };
    return { label: 'operation', handler: only(method, byVerb, 'operation') };
  }
  if ((match = revisionsPath.exec(name) ?? revisionPath.exec(name)) !== null) {
    const target = match[1] as string;
    if (target !== plane.startupName && !plane.has(target)) return notFoundRoute(`ReasoningEngine ${target} not found.`);
    if (version !== 'v1beta1') return notFoundRoute('runtimeRevisions are served under /v1beta1/ only, as by the API.');
    const label = name.endsWith('/runtimeRevisions') ? 'runtimeRevisions' : 'runtimeRevision';
    const byVerb: Record<string, Handler> = { GET: () => (label === 'runtimeRevisions' ? plane.revisions(target, url.searchParams) : plane.revision(name)) };
    if (label === 'runtimeRevision') {
      // DeleteReasoningEngineRuntimeRevision: a method of the platform's, which dev does not serve.
      byVerb['DELETE'] = () => {
        throw notServed('reasoningEngines.runtimeRevisions.delete (a revision goes when its engine is deleted)');
      };
    }
    return { label, handler: only(method, byVerb, label) };
  }
  if ((match = servicesPath.exec(name)) !== null && plane.has(match[1] as string)) {
    // The engine's Sessions and Memory Bank: its own services, as the startup engine has.
    return { services: plane.servicesOf(match[1] as string) as EngineEndpoints };
  }
  return unservedOrMissing(plane, name);
}

/**
 * What is left under the API's paths: a call of the platform's that dev does not serve (501), an
 * unknown collection of an engine that exists, or an engine that does not exist (404, saying so);
 * undefined for a path that is not the control plane's (a query, the startup engine's services).
 */
function unservedOrMissing(plane: ControlPlane, name: string): Route | undefined {
  const exists = (target: string): boolean => target === plane.startupName || plane.has(target);
  const verb = engineVerbPath.exec(name);
  if (verb !== null && exists(verb[1] as string) && Object.hasOwn(unservedEngineVerbs, verb[2] as string)) {
    return unservedRoute(unservedEngineVerbs[verb[2] as string] as string);
  }
  const under = collectionUnder.exec(name);
  // The engine's own services are routed above, or by the REST face for the startup engine.
  if (under !== null && !['sessions', 'memories', 'operations'].includes(under[2] as string)) {
    const [engineName, collection, rest] = [under[1] as string, under[2] as string, under[3]];
    if (exists(engineName)) return collectionUnderEngine(collection, rest);
    // runtimeRevisions' paths go on as under an engine that exists (routed above, or by the REST face).
    if (collection !== 'runtimeRevisions') {
      // Under an engine that does not exist: say that, not that the path does not.
      return notFoundRoute(
        `ReasoningEngine ${engineName} not found: agentgen dev has the engine it started with (${plane.startupName}) and those deployed to it (agentgen deploy --api-endpoint).`,
      );
    }
  }
  if (expressPath.test(name)) {
    return unservedRoute(
      "Vertex AI express mode's paths (/reasoningEngines/… without a project and location): name the engine projects/P/locations/L/reasoningEngines/ID",
    );
  }
  return undefined;
}

/** A collection (and what follows it, `rest`) under an engine that exists, not one of its services: 501 for the platform's, 404 for any other. */
function collectionUnderEngine(collection: string, rest: string | undefined): Route | undefined {
  if (collection === 'runtimeRevisions') {
    // runtimeRevisions' own paths are routed above (list, get) or by the REST face (:query, :streamQuery).
    if (/^\/[^/:]+:(query|streamQuery)$/.test(rest ?? '')) return undefined;
    return unservedRoute('this method of reasoningEngines.runtimeRevisions (dev lists and gets revisions, and queries one)');
  }
  const refusal = unknownCollection(collection);
  return {
    label: 'control plane',
    handler: () => {
      throw refusal;
    },
  };
}

/** Runs a route: the token, the path's ids, the protos loaded, then its handler; logs one line. */
function answer(
  req: IncomingMessage,
  res: ServerResponse,
  name: string,
  route: Route,
  authenticate: (authorization: string | undefined) => void,
  log: (line: string) => void,
): void {
  const started = performance.now();
  void (async () => {
    let status: number;
    try {
      authenticate(req.headers.authorization);
      checkPathIds(withoutMethod(name));
      await loadProtoReaders();
      status = sendJson(res, 200, await route.handler());
    } catch (error) {
      if (!req.complete) closeWithoutReading(req, res);
      status =
        error instanceof ServiceError
          ? sendServiceError(res, error, error instanceof WrongMethod ? { allow: error.allow.join(', ') } : {})
          : error instanceof PublicError
            ? sendStatus(res, error)
            : sendServiceError(res, internalError(error, "agentgen dev's control plane", log));
    }
    log(`${req.method ?? 'GET'} ${route.label} ${status} ${(performance.now() - started).toFixed(1)} ms`);
  })();
}

export function controlPlaneRoutes(
  plane: ControlPlane,
  authenticate: (authorization: string | undefined) => void,
  log: (line: string) => void,
): ControlPlaneRoutes {
  return (req, res, url) => {
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return false; // the REST face answers a malformed path
    }
    const versioned = /^\/(v1|v1beta1)\/(.*)$/.exec(path);
    if (versioned === null) return false;
    const name = versioned[2] as string;
    const body = async (): Promise<Record<string, unknown>> => {
      const type = req.headers['content-type'];
      if (type !== undefined && !/^application\/json\s*(;|,|$)/i.test(type)) throw invalidArgument('Content-Type must be application/json.');
      return parseBody((await readBoundedBody(req, tooLarge)).toString('utf8'));
    };
    const route = routeOf(plane, { version: versioned[1] as ApiVersion, name, method: req.method ?? 'GET', url, body });
    if (route === undefined) return false;
    if ('services' in route) return route.services(req, res, url);
    answer(req, res, name, route, authenticate, log);
    return true;
  };
}

/**
 * The gRPC face's management call, routed and run as `controlPlaneRoutes` routes and runs a
 * request (the token is the face's to check); undefined when the call is not the control plane's.
 */
export function controlPlaneDispatch(plane: ControlPlane): (request: ApiRequest) => Promise<object> | undefined {
  return (request) => {
    const route = routeOf(plane, { ...request, url: new URL(`http://dev.invalid/?${request.query.toString()}`), body: async () => request.body });
    if (route === undefined) return undefined;
    if ('services' in route) return route.services.dispatch(request);
    return (async () => {
      checkPathIds(withoutMethod(request.name));
      await loadProtoReaders();
      return route.handler();
    })();
  };
}

/** The path without its method (`{engine}:asyncQuery`): a method is no part of the last id. */
function withoutMethod(name: string): string {
  return name.replace(/:[A-Za-z]+$/, '');
}
