/**
 * Client runtime of the public query API (contract sections 4.1, 4.3, 6; DESIGN.md "Public API").
 *
 * Copied verbatim into every generated `client.ts`; the emitter appends the typed `AgentClient`
 * interface and the operation table. It uses only web globals (`fetch`, `TextDecoder`,
 * `AbortController`, `URL`) and imports nothing, so the generated client also runs in browsers
 * and edge runtimes. Validators are taken structurally (`safeParse`), so zod is not imported here.
 */

/** What the client needs from a validator: zod schemas satisfy it. */
export interface ClientSchema {
  safeParse(
    data: unknown,
  ):
    | { success: true; data: unknown }
    | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}

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

/** `GET /v1/{resourceName}`: the resource with its declared `classMethods`. */
export interface AgentResource {
  readonly name?: string;
  readonly spec?: { readonly classMethods?: ReadonlyArray<{ readonly name: string; readonly api_mode: string }> };
  readonly [key: string]: unknown;
}

/** A stream of events; iterating it sends the request. `break` or `return()` cancels the request. */
export interface EventStream<T = unknown> extends AsyncIterableIterator<T> {
  return(): Promise<IteratorResult<T, undefined>>;
}

type OperationMethod = (input: unknown, options?: CallOptions) => Promise<unknown> | EventStream;

export interface ClientCoreMethods {
  getResource(options?: CallOptions): Promise<AgentResource>;
  call(name: string, input: unknown, options: GenericCallOptions & { stream: true }): EventStream;
  call(name: string, input: unknown, options?: GenericCallOptions & { stream?: false }): Promise<unknown>;
}

export type ClientCore = ClientCoreMethods & { readonly [operation: string]: OperationMethod | undefined };

/** Generic methods of every client; a spec must not declare operations with these names. */
export const reservedClientNames: readonly string[] = ['getResource', 'call'];

const rpcStatusByHttp: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export interface AgentApiErrorInit {
  readonly httpStatus: number;
  readonly code: number;
  readonly status: string;
  readonly message: string;
  readonly details?: readonly unknown[];
  readonly body?: string;
  readonly cause?: unknown;
}

/**
 * An error from the service: a non-2xx `google.rpc.Status` body, an `{"error": ...}` line in a
 * stream, or a response that breaks the protocol. `body` keeps the raw text when it was not a Status.
 */
export class AgentApiError extends Error {
  override readonly name = 'AgentApiError';
  /** HTTP status of the response (0 when no response arrived). */
  readonly httpStatus: number;
  /** `error.code` of the Status body (an HTTP status by Google's convention). */
  readonly code: number;
  /** `error.status`, an rpc code name such as `NOT_FOUND`. */
  readonly status: string;
  readonly details: readonly unknown[];
  readonly body: string | undefined;

  constructor(init: AgentApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.httpStatus = init.httpStatus;
    this.code = init.code;
    this.status = init.status;
    this.details = init.details ?? [];
    this.body = init.body;
  }
}

/** Input or result that fails its operation's validator. Nothing was sent (input) or the result is unusable. */
export class AgentValidationError extends Error {
  override readonly name = 'AgentValidationError';
  constructor(
    readonly operation: string,
    readonly direction: 'input' | 'result',
    readonly issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  ) {
    super(
      `${direction === 'input' ? 'Invalid input for' : 'Invalid result from'} ${operation}: ` +
        issues.map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)'}: ${issue.message}`).join('; '),
    );
  }
}

const maxQuotedBody = 500;

function quote(text: string): string {
  return text.length > maxQuotedBody ? `${text.slice(0, maxQuotedBody)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Turns the `error` member of a Status body (or of a stream error line) into an AgentApiError. */
function errorFromStatus(httpStatus: number, error: unknown, fallbackCode: number): AgentApiError {
  if (typeof error === 'string') {
    return new AgentApiError({ httpStatus, code: fallbackCode, status: 'UNKNOWN', message: error });
  }
  const fields = isRecord(error) ? error : {};
  const code = typeof fields['code'] === 'number' ? fields['code'] : fallbackCode;
  return new AgentApiError({
    httpStatus,
    code,
    status: typeof fields['status'] === 'string' ? fields['status'] : (rpcStatusByHttp[code] ?? 'UNKNOWN'),
    message: typeof fields['message'] === 'string' ? fields['message'] : JSON.stringify(error),
    details: Array.isArray(fields['details']) ? fields['details'] : [],
  });
}

/** A non-2xx response: a `google.rpc.Status` body when there is one, else the raw text. */
export function errorFromResponse(httpStatus: number, statusText: string, text: string): AgentApiError {
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed) && parsed['error'] !== undefined) return errorFromStatus(httpStatus, parsed['error'], httpStatus);
  } catch {
    // Not JSON (a proxy's HTML page, a plain-text crash): reported with its raw text below.
  }
  const summary = text.trim().length > 0 ? quote(text.trim()) : '(empty body)';
  return new AgentApiError({
    httpStatus,
    code: httpStatus,
    status: rpcStatusByHttp[httpStatus] ?? 'UNKNOWN',
    message: `HTTP ${httpStatus}${statusText ? ` ${statusText}` : ''}: ${summary}`,
    body: text,
  });
}

const lf = 10;
const cr = 13;
const openBrace = 123;
const colon = 58;
const letterD = 100;

/**
 * Reads a streamed body: NDJSON lines, or SSE `data:` lines. Partial lines are buffered across
 * chunks and UTF-8 is decoded in stream mode, so a character split between chunks survives.
 * Blank lines, SSE comments (`:`) and other SSE fields are skipped; `\r\n` is accepted.
 * A line `{"error": ...}` ends the stream with `error` set, after the events before it.
 *
 * Push-based and synchronous so the hot loop has no promise per line; `EventStream` wraps it.
 */
export class StreamLineReader {
  private readonly decoder = new TextDecoder('utf-8');
  private rest = '';
  /** Set once an error line or an unreadable line was seen; later input is ignored. */
  error: AgentApiError | undefined;

  constructor(private readonly httpStatus = 200) {}

  /** Parses the complete lines of `chunk`, appending events to `out`. False once `error` is set. */
  push(chunk: Uint8Array, out: unknown[]): boolean {
    if (this.error !== undefined) return false;
    const text = this.decoder.decode(chunk, { stream: true });
    let start = 0;
    let newline = text.indexOf('\n');
    if (newline === -1) {
      this.rest += text;
      return true;
    }
    // The first line completes what earlier chunks left over.
    if (this.rest.length > 0) {
      const line = this.rest + text.slice(0, newline);
      this.rest = '';
      if (!this.line(line, out)) return false;
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    while (newline !== -1) {
      if (!this.line(text.slice(start, newline), out)) return false;
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    this.rest = start < text.length ? text.slice(start) : '';
    return true;
  }

  /** The body ended: parses a last line without a newline. */
  end(out: unknown[]): boolean {
    if (this.error !== undefined) return false;
    const line = this.rest + this.decoder.decode();
    this.rest = '';
    return this.line(line, out);
  }

  private line(raw: string, out: unknown[]): boolean {
    let line = raw;
    let first = line.charCodeAt(0);
    if (first !== openBrace) {
      if (line.length === 0) return true;
      if (line.charCodeAt(line.length - 1) === cr) line = line.slice(0, -1);
      if (first <= 32) line = line.trim();
      if (line.length === 0) return true;
      first = line.charCodeAt(0);
      if (first === colon) return true; // SSE comment
      if (first === letterD && line.startsWith('data:')) {
        line = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
        if (line.trim().length === 0) return true;
      } else if (/^(event|id|retry):/.test(line)) {
        return true; // other SSE fields carry nothing for us
      }
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.error = new AgentApiError({
        httpStatus: this.httpStatus,
        code: 500,
        status: 'UNKNOWN',
        message: `Stream line is not JSON: ${quote(line)}`,
        body: line,
      });
      return false;
    }
    // An error line ends the stream. Checked cheaply: events have no `error` member.
    if (typeof value === 'object' && value !== null && (value as { error?: unknown }).error !== undefined) {
      const keys = Object.keys(value);
      if (keys.length === 1) {
        this.error = errorFromStatus(this.httpStatus, (value as { error: unknown }).error, 500);
        return false;
      }
    }
    out.push(value);
    return true;
  }
}

type Start = (signal: AbortSignal) => Promise<Response>;

/**
 * The async iterator behind a streaming call. It sends the request on the first `next()`, hands
 * out events from a batch parsed per chunk (a resolved promise per event, no generator machinery),
 * and cancels the request (abort + body cancel) on `return()`, `throw()`, an error, or the signal.
 */
class ResponseEventStream implements EventStream {
  private readonly controller = new AbortController();
  private queue: unknown[] = [];
  private head = 0;
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private lines: StreamLineReader | undefined;
  private pending: Promise<IteratorResult<unknown, undefined>> | undefined;
  private done = false;
  private failure: unknown;
  private readonly onAbort: () => void;

  constructor(
    private readonly start: Start,
    private readonly userSignal: AbortSignal | undefined,
  ) {
    this.onAbort = () => this.controller.abort(this.userSignal?.reason);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<unknown, undefined>> {
    if (this.pending !== undefined) return this.pending.then(() => this.next());
    if (this.head < this.queue.length || this.done) return this.answer();
    const pending = this.fill().finally(() => {
      this.pending = undefined;
    });
    this.pending = pending;
    return pending;
  }

  /** The next queued event, else the end or the failure (thrown once). */
  private answer(): Promise<IteratorResult<unknown, undefined>> {
    if (this.head < this.queue.length) {
      const value = this.queue[this.head++];
      return Promise.resolve({ value, done: false });
    }
    if (this.failure !== undefined) {
      const failure = this.failure;
      this.failure = undefined;
      return Promise.reject(failure);
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  async return(): Promise<IteratorResult<unknown, undefined>> {
    this.queue = [];
    this.head = 0;
    this.finish(undefined);
    return { value: undefined, done: true };
  }

  async throw(error?: unknown): Promise<IteratorResult<unknown, undefined>> {
    this.queue = [];
    this.head = 0;
    this.finish(undefined);
    throw error;
  }

  /** Reads chunks until at least one event is queued or the stream is over. */
  private async fill(): Promise<IteratorResult<unknown, undefined>> {
    try {
      if (this.reader === undefined) {
        // Listen to the caller's signal only once the request starts: a stream never iterated holds nothing.
        const signal = this.userSignal;
        if (signal?.aborted === true) this.controller.abort(signal.reason);
        else signal?.addEventListener('abort', this.onAbort, { once: true });
        const response = await this.start(this.controller.signal);
        if (response.body === null) throw new AgentApiError({ httpStatus: response.status, code: 500, status: 'UNKNOWN', message: 'Stream response has no body' });
        this.lines = new StreamLineReader(response.status);
        this.reader = response.body.getReader();
      }
      const lines = this.lines as StreamLineReader;
      this.queue = [];
      this.head = 0;
      while (this.queue.length === 0) {
        const chunk = await this.reader.read();
        const ok = chunk.done ? lines.end(this.queue) : lines.push(chunk.value, this.queue);
        if (!ok || chunk.done) {
          // Events before an error line are still delivered; the error comes after them.
          this.finish(lines.error);
          break;
        }
      }
    } catch (error) {
      this.finish(this.controller.signal.aborted && this.userSignal?.aborted ? this.userSignal.reason : error);
    }
    return this.answer();
  }

  /** Ends the stream once: releases the listener, aborts the request and cancels the body. */
  private finish(failure: unknown): void {
    if (this.done) return;
    this.done = true;
    this.failure = failure;
    this.userSignal?.removeEventListener('abort', this.onAbort);
    const reader = this.reader;
    this.reader = undefined;
    if (reader !== undefined) reader.cancel().catch(() => undefined);
    this.controller.abort();
  }
}

function resolveToken(token: AgentClientOptions['token']): string | Promise<string> {
  return typeof token === 'function' ? token() : token;
}

function checkInput(name: string, input: unknown, schema: ClientSchema | undefined, validate: boolean): void {
  if (!isRecord(input)) {
    // The public API only takes an object (`input` is a Struct); refuse before a round trip.
    throw new AgentValidationError(name, 'input', [{ path: [], message: `expected an object, got ${Array.isArray(input) ? 'an array' : input === null ? 'null' : typeof input}` }]);
  }
  if (!validate || schema === undefined) return;
  const result = schema.safeParse(input);
  if (!result.success) throw new AgentValidationError(name, 'input', result.error.issues);
}

function resourceUrl(baseUrl: string, resourceName: string): string {
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
  return `${base.href.replace(/\/+$/, '')}/v1/${segments.map(encodeURIComponent).join('/')}`;
}

/**
 * Builds the client: one method per table entry plus `getResource` and `call`. The object has a
 * null prototype and its methods are own properties, so an operation named `constructor` or
 * `toString` is just a method, and no inherited name is mistaken for an operation.
 */
export function createClientCore(table: ClientOperationTable, options: AgentClientOptions): ClientCore {
  const url = resourceUrl(options.baseUrl, options.resourceName);
  if (typeof options.token !== 'string' && typeof options.token !== 'function') {
    throw new TypeError('token must be a string or a function returning one');
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new TypeError('No fetch available: pass options.fetch');
  const validate = options.validate ?? true;
  const streamUrl = `${url}:streamQuery${options.sse === true ? '?alt=sse' : ''}`;

  const send = async (target: string, method: 'GET' | 'POST', body: string | undefined, signal: AbortSignal | undefined): Promise<Response> => {
    const token = await resolveToken(options.token);
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetchImpl(target, { method, headers, body, signal });
    } catch (error) {
      if (signal?.aborted === true) throw error; // a cancel is not a service failure
      const reason = error instanceof Error ? error.message : String(error);
      throw new AgentApiError({ httpStatus: 0, code: 503, status: 'UNAVAILABLE', message: `Request to ${target} failed: ${reason}`, cause: error });
    }
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
      throw new AgentApiError({ httpStatus: response.status, code: 500, status: 'UNKNOWN', message: `Response of ${name} has no "output": ${quote(JSON.stringify(body))}` });
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
    const body = await readJson(await send(url, 'GET', undefined, callOptions?.signal), 'Resource');
    if (!isRecord(body)) throw new AgentApiError({ httpStatus: 200, code: 500, status: 'UNKNOWN', message: `Resource is not an object: ${quote(JSON.stringify(body))}` });
    return body as AgentResource;
  };
  // A declared operation lends its validators when called by name with its own kind.
  const call = (name: string, input: unknown, callOptions?: GenericCallOptions): Promise<unknown> | EventStream => {
    const declared = table.get(name);
    const wantsStream = callOptions?.stream === true;
    const operation = declared !== undefined && (declared.kind === 'stream') === wantsStream ? declared : undefined;
    return wantsStream ? stream(name, input, operation, callOptions) : unary(name, input, operation, callOptions);
  };
  Object.defineProperty(client, 'getResource', { value: getResource, enumerable: false });
  Object.defineProperty(client, 'call', { value: call, enumerable: false });
  return client as unknown as ClientCore;
}
