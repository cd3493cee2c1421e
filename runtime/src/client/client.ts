/**
 * The client of the public query API: `POST /v1/{resource}:query` (unary) and `:streamQuery`
 * (NDJSON, or SSE with `?alt=sse`), `GET /v1/{resource}`, bearer tokens, validation, cancellation.
 * It uses only web globals (`fetch`, `TextDecoder`, `AbortController`, `URL`), so it also runs in
 * browsers and edge runtimes. Validators are taken structurally (`safeParse`): no zod import here.
 */
import { type ManifestEntry, passthroughBase as passthroughOf, type Validator } from '../contract.js';
import { activeTraceparent } from '../opentelemetry.js';
import { type A2AClient, type A2AClientFace, createA2AClient } from './a2a-client.js';
import { AgentApiError, AgentValidationError, errorFromResponse, isRecord, quote } from './errors.js';
import { type EventStream, ResponseEventStream } from './event-stream.js';

/** What the client needs from a validator (zod schemas satisfy it): the runtime's one `Validator`. */
export type ClientSchema = Validator;

/** One declared operation: the public endpoint follows from `kind` (unary → `:query`, stream → `:streamQuery`). */
export interface ClientOperation {
  readonly kind: 'unary' | 'stream';
  /** Validates `input` before sending. */
  readonly input?: ClientSchema;
  /** Validates (and normalises) a unary result. Stream events are not parsed: that would cost throughput. */
  readonly output?: ClientSchema;
}

/** Declared operations by name. A Map, so a name like `constructor` is only ever a key. */
export type ClientOperationTable = ReadonlyMap<string, ClientOperation>;

export interface AgentClientOptions {
  /** Regional host, or the emulator's `http://127.0.0.1:PORT`. */
  readonly baseUrl: string;
  /** `projects/{p}/locations/{l}/reasoningEngines/{id}`. */
  readonly resourceName: string;
  /** Sent as `Authorization: Bearer <token>`; a function is called once per request (tokens expire). */
  readonly token: string | (() => string | Promise<string>);
  /** Defaults to the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Streams use `:streamQuery?alt=sse` (server-sent-events framing) instead of NDJSON. */
  readonly sse?: boolean;
  /**
   * Pins every `:query` / `:streamQuery` to one runtime revision (its id, or its full name under
   * this resource): `POST /v1beta1/{resourceName}/runtimeRevisions/{revision}:query`, the
   * revision-pinned paths of the v1beta1 API. Unset: the engine's traffic split picks the revision.
   * `getResource` and `passthrough` are not pinned.
   */
  readonly revision?: string;
  /** Validate inputs before sending and unary results after receiving. Default true. */
  readonly validate?: boolean;
}

export interface CallOptions {
  /** Aborts the HTTP request; a stream stops with the signal's reason. */
  readonly signal?: AbortSignal;
}

export interface GenericCallOptions extends CallOptions {
  /** POST `:streamQuery` and return events instead of `:query` and its output. Default false. */
  readonly stream?: boolean;
}

/**
 * `GET /v1/{resourceName}`: the `ReasoningEngine` resource, in ProtoJSON names. Every field is
 * optional: the platform omits what is unset, and returns more than is typed here.
 */
export interface AgentResource {
  readonly name?: string;
  readonly displayName?: string;
  readonly description?: string;
  /** RFC 3339. */
  readonly createTime?: string;
  readonly updateTime?: string;
  readonly spec?: {
    readonly classMethods?: readonly ManifestEntry[];
    /** `google-adk`, `langchain`, `custom`... */
    readonly agentFramework?: string;
    readonly containerSpec?: { readonly imageUri?: string; readonly [key: string]: unknown };
    readonly deploymentSpec?: { readonly [key: string]: unknown };
    readonly [key: string]: unknown;
  };
  readonly [key: string]: unknown;
}

type OperationMethod = (input: unknown, options?: CallOptions) => Promise<unknown> | EventStream;

export interface ClientCoreMethods {
  getResource(options?: CallOptions): Promise<AgentResource>;
  call(name: string, input: unknown, options: GenericCallOptions & { stream: true }): EventStream;
  call(name: string, input: unknown, options?: GenericCallOptions & { stream?: false }): Promise<unknown>;
  /**
   * The runtime's HTTP passthrough: `{baseUrl}/reasoningEngines/v1/{resourceName}/api/{path}`
   * reaches the container's `/{path}` with any method (the runtime strips `/api`): `path` is the
   * container's own path, `a2a/app/.well-known/agent-card.json` or `api/stream_reasoning_engine`. Untyped, as `fetch`:
   * the token and trace are added, and the answer comes back as it is (a non-2xx is not thrown).
   */
  passthrough(path: string, init?: RequestInit): Promise<Response>;
}

/** The client of a spec with an A2A face: `client.a2a` reaches it through the passthrough. */
export interface A2AClientMethods {
  readonly a2a: A2AClient;
}

export type ClientCore = ClientCoreMethods & { readonly [operation: string]: OperationMethod | undefined };

/** Generic methods of every client; a spec must not declare operations with these names. */
export const reservedClientNames: readonly string[] = ['getResource', 'call', 'passthrough', 'a2a'];

function resolveToken(token: AgentClientOptions['token']): string | Promise<string> {
  return typeof token === 'function' ? token() : token;
}

function checkInput(name: string, input: unknown, schema: ClientSchema | undefined, validate: boolean): void {
  if (!isRecord(input)) {
    // The public API only takes an object (`input` is a Struct); refuse before a round trip.
    throw new AgentValidationError(name, 'input', [
      { path: [], message: `expected an object, got ${Array.isArray(input) ? 'an array' : input === null ? 'null' : typeof input}` },
    ]);
  }
  if (!validate || schema === undefined) return;
  const result = schema.safeParse(input);
  if (!result.success) throw new AgentValidationError(name, 'input', result.error.issues);
}

/** The API root (`baseUrl` without a trailing slash) and the resource name, each segment encoded. */
function resourceParts(baseUrl: string, resourceName: string): { readonly root: string; readonly resource: string } {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (base.search !== '' || base.hash !== '') throw new TypeError(`baseUrl must not carry a query or fragment: ${baseUrl}`);
  const segments = resourceName.split('/');
  if (resourceName.length === 0 || segments.some((segment) => segment.length === 0 || segment === '.' || segment === '..')) {
    throw new TypeError(`resourceName must look like projects/{p}/locations/{l}/reasoningEngines/{id}, got ${JSON.stringify(resourceName)}`);
  }
  // Each segment is encoded so no name can change the URL's meaning (`?`, `#`, `%`).
  return { root: base.href.replace(/\/+$/, ''), resource: segments.map(encodeURIComponent).join('/') };
}

/**
 * The revision id of `revision`: an id (`3`), or a full name under `resourceName`
 * (`{resourceName}/runtimeRevisions/3`); anything else is refused, so a pin never reaches another engine.
 */
function revisionId(revision: string, resourceName: string): string {
  const prefix = `${resourceName}/runtimeRevisions/`;
  const id = typeof revision === 'string' && revision.startsWith(prefix) ? revision.slice(prefix.length) : revision;
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(id)) {
    throw new TypeError(`revision must be a runtime revision id, or a name ${prefix}{id}, got ${JSON.stringify(revision)}`);
  }
  return id;
}

/**
 * A container path (`a2a/app/.well-known/agent-card.json`, with or without a leading `/`, with or
 * without a query) as its passthrough URL under `base` (`…/api/`); a path that would climb out of
 * `base` or carries a fragment is refused.
 */
function passthroughUrl(base: string, path: string): string {
  if (typeof path !== 'string') throw new TypeError(`passthrough path must be a string, got ${typeof path}`);
  // `./` keeps a first segment such as `message:send` from reading as a URL scheme.
  const target = new URL(`./${path.replace(/^\/+/, '')}`, base);
  if (!target.href.startsWith(base) || target.hash !== '') {
    throw new TypeError(`passthrough path must stay under /api/ and carry no fragment, got ${JSON.stringify(path)}`);
  }
  return target.href;
}

/**
 * Builds the client: one method per table entry plus `getResource` and `call`. The object has a
 * null prototype and its methods are own properties, so an operation named `constructor` or
 * `toString` is just a method, and no inherited name is mistaken for an operation.
 */
export function createClientCore(table: ClientOperationTable, options: AgentClientOptions, a2a?: A2AClientFace): ClientCore {
  const { root, resource } = resourceParts(options.baseUrl, options.resourceName);
  const resourceUrl = `${root}/v1/${resource}`;
  const url =
    options.revision === undefined ? resourceUrl : `${root}/v1beta1/${resource}/runtimeRevisions/${revisionId(options.revision, options.resourceName)}`;
  const passthroughBase = `${passthroughOf(root, resource)}/`;
  if (typeof options.token !== 'string' && typeof options.token !== 'function') {
    throw new TypeError('token must be a string or a function returning one');
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new TypeError('No fetch available: pass options.fetch');
  const validate = options.validate ?? true;
  const streamUrl = `${url}:streamQuery${options.sse === true ? '?alt=sse' : ''}`;

  /** One authorised request: the token, the caller's trace, and a network failure as UNAVAILABLE. */
  const authorizedFetch = async (target: string, init: RequestInit, headers: Headers): Promise<Response> => {
    const token = await resolveToken(options.token);
    headers.set('authorization', `Bearer ${token}`);
    // The caller's active span, so the platform (or agentgen dev) continues its trace in the container.
    const traceparent = await activeTraceparent();
    if (traceparent !== undefined) headers.set('traceparent', traceparent);
    try {
      return await fetchImpl(target, { ...init, headers });
    } catch (error) {
      if (init.signal?.aborted === true) throw error; // a cancel is not a service failure
      const reason = error instanceof Error ? error.message : String(error);
      throw new AgentApiError({ httpStatus: 0, code: 503, status: 'UNAVAILABLE', message: `Request to ${target} failed: ${reason}`, cause: error });
    }
  };

  const send = async (target: string, method: 'GET' | 'POST', body: string | undefined, signal: AbortSignal | undefined): Promise<Response> => {
    const headers = new Headers();
    if (body !== undefined) headers.set('content-type', 'application/json');
    // Only the members that are set: `body` and `signal` are absent, not undefined, when there are none.
    const init: RequestInit = { method };
    if (body !== undefined) init.body = body;
    if (signal !== undefined) init.signal = signal;
    const response = await authorizedFetch(target, init, headers);
    if (!response.ok) throw errorFromResponse(response.status, response.statusText, await response.text());
    return response;
  };

  const readJson = async (response: Response, what: string): Promise<unknown> => {
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch {
      throw new AgentApiError({ httpStatus: response.status, code: 500, status: 'UNKNOWN', message: `${what} is not JSON: ${quote(text)}`, body: text });
    }
  };

  const unary = async (name: string, input: unknown, operation: ClientOperation | undefined, callOptions: CallOptions | undefined): Promise<unknown> => {
    const args = input === undefined ? {} : input;
    checkInput(name, args, operation?.input, validate);
    const response = await send(`${url}:query`, 'POST', JSON.stringify({ classMethod: name, input: args }), callOptions?.signal);
    const body = await readJson(response, `Response of ${name}`);
    if (!isRecord(body) || !('output' in body)) {
      throw new AgentApiError({
        httpStatus: response.status,
        code: 500,
        status: 'UNKNOWN',
        message: `Response of ${name} has no "output": ${quote(JSON.stringify(body))}`,
      });
    }
    const output = body['output'];
    if (!validate || operation?.output === undefined) return output;
    const result = operation.output.safeParse(output);
    if (!result.success) throw new AgentValidationError(name, 'result', result.error.issues);
    return result.data;
  };

  const stream = (name: string, input: unknown, operation: ClientOperation | undefined, callOptions: CallOptions | undefined): EventStream =>
    new ResponseEventStream(async (signal) => {
      const args = input === undefined ? {} : input;
      checkInput(name, args, operation?.input, validate);
      return send(streamUrl, 'POST', JSON.stringify({ classMethod: name, input: args }), signal);
    }, callOptions?.signal);

  const client = Object.create(null) as Record<string, unknown>;
  for (const [name, operation] of table) {
    if (reservedClientNames.includes(name)) {
      throw new TypeError(`Operation name ${JSON.stringify(name)} collides with the client's own ${name}(); rename the operation`);
    }
    const method: OperationMethod =
      operation.kind === 'stream'
        ? (input, callOptions) => stream(name, input, operation, callOptions)
        : (input, callOptions) => unary(name, input, operation, callOptions);
    Object.defineProperty(client, name, { value: method, enumerable: true });
  }

  const getResource = async (callOptions?: CallOptions): Promise<AgentResource> => {
    const body = await readJson(await send(resourceUrl, 'GET', undefined, callOptions?.signal), 'Resource');
    if (!isRecord(body))
      throw new AgentApiError({ httpStatus: 200, code: 500, status: 'UNKNOWN', message: `Resource is not an object: ${quote(JSON.stringify(body))}` });
    return body as AgentResource;
  };
  // A declared operation lends its validators when called by name with its own kind.
  const call = (name: string, input: unknown, callOptions?: GenericCallOptions): Promise<unknown> | EventStream => {
    const declared = table.get(name);
    const wantsStream = callOptions?.stream === true;
    const operation = declared !== undefined && (declared.kind === 'stream') === wantsStream ? declared : undefined;
    return wantsStream ? stream(name, input, operation, callOptions) : unary(name, input, operation, callOptions);
  };
  const passthrough = (path: string, init: RequestInit = {}): Promise<Response> =>
    authorizedFetch(passthroughUrl(passthroughBase, path), init, new Headers(init.headers));
  Object.defineProperty(client, 'getResource', { value: getResource, enumerable: false });
  Object.defineProperty(client, 'passthrough', { value: passthrough, enumerable: false });
  Object.defineProperty(client, 'call', { value: call, enumerable: false });
  if (a2a !== undefined) Object.defineProperty(client, 'a2a', { value: createA2AClient(a2a, passthrough), enumerable: false });
  return client as unknown as ClientCore;
}
