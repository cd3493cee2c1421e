/**
 * A local fake of the `reasoningEngines` REST API (v1) on loopback, for `agentgen deploy` and the
 * curl output: it records every request, answers `list` (one resource a page, so paging is
 * exercised), `get`, `create` and `patch` with long-running operations that finish after
 * `pollsUntilDone` polls, and fails the ways the real one does: an HTTP error with a
 * `google.rpc.Status` body (403, 409, ...) or an operation that finishes with `error`. It can also
 * answer anything at all, built from the request's Authorization header (an API or a proxy that
 * echoes it), to show that no answer makes agentgen print the token.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly authorization: string | undefined;
  readonly body: unknown;
}

type Resource = Record<string, unknown> & { name: string };
interface Operation {
  name: string;
  polls: number;
  result: Resource | undefined;
  error: { code: number; message: string } | undefined;
}

const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** The API's error body: a google.rpc.Status under `error`. */
export function rpcStatusBody(status: number, message: string): string {
  return JSON.stringify({ error: { code: status, message, status: statusNames[status] ?? 'UNKNOWN' } });
}

/** An answer the test chose, built from the request's Authorization header. */
interface ChosenAnswer {
  readonly method: string;
  readonly status: number;
  readonly contentType: string;
  readonly body: (authorization: string) => string;
}

export class FakeReasoningEngines {
  readonly requests: RecordedRequest[] = [];
  readonly resources = new Map<string, Resource>();
  readonly #operations = new Map<string, Operation>();
  readonly #answers: ChosenAnswer[] = [];
  #failedOperation: { code: number; message: string } | undefined;
  #nextId = 1000;
  #server: Server | undefined;
  url = '';

  constructor(
    readonly token: string,
    readonly pollsUntilDone = 2,
  ) {}

  async start(): Promise<this> {
    this.#server = createServer((req, res) => void this.#handle(req, res));
    await new Promise<void>((done) => this.#server!.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise((done) => this.#server?.close(done));
  }

  /** The next request with this method is answered with `status` and a google.rpc.Status body. */
  failNext(method: string, status: number, message: string): void {
    this.answerNext(method, status, () => rpcStatusBody(status, message), 'application/json');
  }

  /** The next request with this method is answered with `status` and `body(its Authorization header)`, as it is. */
  answerNext(method: string, status: number, body: (authorization: string) => string, contentType = 'text/plain'): void {
    this.#answers.push({ method, status, contentType, body });
  }

  /** The next operation finishes with this error (a google.rpc.Status; `code` is a gRPC code). */
  failNextOperation(code: number, message: string): void {
    this.#failedOperation = { code, message };
  }

  /** A resource that exists before the test runs (as a deploy from an earlier run left it). */
  seed(parent: string, body: Record<string, unknown>): Resource {
    const resource = { ...structuredClone(body), name: `${parent}/reasoningEngines/${this.#nextId++}` };
    this.resources.set(resource.name, resource);
    return resource;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    let text = '';
    for await (const chunk of req) text += chunk;
    const body = text === '' || !(req.headers['content-type'] ?? '').includes('json') ? undefined : JSON.parse(text);
    this.requests.push({
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
      body,
    });
    const answer = (status: number, contentType: string, content: string) => {
      res.writeHead(status, { 'content-type': contentType });
      res.end(content);
    };
    const send = (status: number, json: unknown) => answer(status, 'application/json', JSON.stringify(json));
    const error = (status: number, message: string) => answer(status, 'application/json', rpcStatusBody(status, message));
    // The STS token exchange of an `external_account` credentials file (Application Default
    // Credentials as google-auth-library reads them): answers with this fake's bearer token.
    if (req.method === 'POST' && url.pathname === '/v1/token' && text.includes('grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange')) {
      return send(200, {
        access_token: this.token,
        issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        token_type: 'Bearer',
        expires_in: 3600,
      });
    }
    if (req.headers.authorization !== `Bearer ${this.token}`) return error(401, 'Request had invalid authentication credentials.');
    const chosen = this.#answers.findIndex((a) => a.method === req.method);
    if (chosen >= 0) {
      const [a] = this.#answers.splice(chosen, 1);
      return answer(a!.status, a!.contentType, a!.body(req.headers.authorization ?? ''));
    }
    // v1 and v1beta1 (what agentgen deploy speaks since runtime revisions) answer alike here.
    const path = url.pathname.replace(/^\/v1(?:beta1)?\//, '');
    const collection = /^(projects\/[^/]+\/locations\/[^/]+)\/reasoningEngines$/.exec(path);
    if (collection && req.method === 'GET') return send(200, this.#list(collection[1]!, url.searchParams.get('pageToken')));
    if (collection && req.method === 'POST') {
      const resource = { ...(body as object), name: `${collection[1]}/reasoningEngines/${this.#nextId++}` };
      return send(
        200,
        this.#operation(resource, () => this.resources.set(resource.name, resource)),
      );
    }
    const operation = this.#operations.get(path);
    if (operation && req.method === 'GET') return send(200, this.#poll(operation));
    const resource = this.resources.get(path);
    if (resource && req.method === 'GET') return send(200, resource);
    if (resource && req.method === 'PATCH') {
      const mask = (url.searchParams.get('updateMask') ?? '').split(',').filter((p) => p !== '');
      if (mask.length === 0) return error(400, 'update_mask is required');
      const updated = structuredClone(resource);
      for (const field of mask) setPath(updated, field, getPath(body, field));
      return send(
        200,
        this.#operation(updated, () => this.resources.set(path, updated)),
      );
    }
    return error(404, `no route for ${req.method} ${url.pathname}`);
  }

  #list(parent: string, pageToken: string | null) {
    const all = [...this.resources.values()].filter((r) => r.name.startsWith(`${parent}/`));
    const index = pageToken === null ? 0 : Number(pageToken);
    const next = index + 1 < all.length ? String(index + 1) : undefined;
    return { reasoningEngines: all.slice(index, index + 1), ...(next === undefined ? {} : { nextPageToken: next }) };
  }

  #operation(result: Resource, commit: () => void) {
    const name = `${result.name}/operations/${this.#nextId++}`;
    const error = this.#failedOperation;
    this.#failedOperation = undefined;
    if (error === undefined) commit();
    this.#operations.set(name, { name, polls: 0, result, error });
    return { name, metadata: { '@type': 'type.googleapis.com/google.cloud.aiplatform.v1.CreateReasoningEngineOperationMetadata' }, done: false };
  }

  #poll(operation: Operation) {
    operation.polls += 1;
    if (operation.polls < this.pollsUntilDone) return { name: operation.name, done: false };
    if (operation.error !== undefined) return { name: operation.name, done: true, error: operation.error };
    return { name: operation.name, done: true, response: { '@type': 'type.googleapis.com/google.cloud.aiplatform.v1.ReasoningEngine', ...operation.result } };
  }
}

function getPath(object: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((value, key) => (value === null || typeof value !== 'object' ? undefined : (value as Record<string, unknown>)[key]), object);
}

function setPath(object: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let target = object;
  for (const key of keys.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
  if (value === undefined) delete target[keys.at(-1)!];
  else target[keys.at(-1)!] = value;
}
