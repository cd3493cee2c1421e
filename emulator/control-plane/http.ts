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
import { parseBody } from '../engine-services/fields.js';
import { invalidArgument, notFound, ServiceError, sendJson, sendServiceError } from '../engine-services/service-error.js';
import { maxRequestBody } from '../forward.js';
import type { ApiVersion } from '../grpc/protos.js';
import { readBoundedBody } from '../request-body.js';
import { PublicError, sendStatus } from '../status.js';
import { internalError } from '../unforeseen-error.js';
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
    const version = versioned[1] as ApiVersion;
    const name = versioned[2] as string;
    const method = req.method ?? 'GET';
    const body = async (): Promise<Record<string, unknown>> => {
      const type = req.headers['content-type'];
      if (type !== undefined && !/^application\/json\s*(;|,|$)/i.test(type)) throw invalidArgument('Content-Type must be application/json.');
      return parseBody((await readBoundedBody(req, tooLarge)).toString('utf8'));
    };

    let label!: string;
    let handler!: Handler;
    let match: RegExpExecArray | null;
    if (collectionPath.test(name)) {
      const parent = name.slice(0, -'/reasoningEngines'.length);
      label = 'reasoningEngines';
      handler = only(
        method,
        { POST: async () => plane.create(version, parent, await body()), GET: () => plane.list(version, parent, url.searchParams) },
        label,
      );
    } else if ((match = enginePath.exec(name)) !== null) {
      const target = match[1] as string;
      // The startup engine under /v1/ answers as it always has (the REST face's GET, its 405s); only a change is refused here.
      if (target === plane.startupName && version === 'v1' && method !== 'PATCH' && method !== 'DELETE') return false;
      label = 'reasoningEngine';
      handler = only(
        method,
        {
          GET: () => plane.get(version, target),
          PATCH: async () => plane.patch(version, target, await body(), url.searchParams),
          DELETE: () => plane.delete(version, target, url.searchParams),
        },
        label,
      );
    } else if ((match = operationPath.exec(name)) !== null && plane.operation(name) !== undefined) {
      label = 'operation';
      handler = only(method, { GET: () => plane.operation(name) as object }, label);
    } else if ((match = revisionsPath.exec(name) ?? revisionPath.exec(name)) !== null) {
      const target = match[1] as string;
      if (target !== plane.startupName && !plane.has(target)) return notFoundHere(`ReasoningEngine ${target} not found.`);
      if (version !== 'v1beta1') return notFoundHere('runtimeRevisions are served under /v1beta1/ only, as by the API.');
      label = name.endsWith('/runtimeRevisions') ? 'runtimeRevisions' : 'runtimeRevision';
      handler = only(method, { GET: () => (label === 'runtimeRevisions' ? plane.revisions(target, url.searchParams) : plane.revision(name)) }, label);
    } else if ((match = servicesPath.exec(name)) !== null && plane.has(match[1] as string)) {
      // The engine's Sessions and Memory Bank: its own services, as the startup engine has.
      return (plane.servicesOf(match[1] as string) as NonNullable<ReturnType<ControlPlane['servicesOf']>>)(req, res, url);
    } else return false;

    function notFoundHere(message: string): boolean {
      label = 'control plane';
      handler = () => {
        throw notFound(message);
      };
      return run();
    }
    return run();

    function run(): boolean {
      const started = performance.now();
      void (async () => {
        let status: number;
        try {
          authenticate(req.headers.authorization);
          checkPathIds(name);
          await loadProtoReaders();
          status = sendJson(res, 200, await handler());
        } catch (error) {
          if (!req.complete) closeWithoutReading(req, res);
          status =
            error instanceof ServiceError
              ? sendServiceError(res, error, error instanceof WrongMethod ? { allow: error.allow.join(', ') } : {})
              : error instanceof PublicError
                ? sendStatus(res, error)
                : sendServiceError(res, internalError(error, "agentgen dev's control plane", log));
        }
        log(`${method} ${label} ${status} ${(performance.now() - started).toFixed(1)} ms`);
      })();
      return true;
    }
  };
}
