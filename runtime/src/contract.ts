/**
 * The few contract values the runtime acts on: the two fixed container routes, the error row of
 * each condition the container can answer, and the `google.rpc.Status` code names with their HTTP
 * status. The server and the client both read them from here; agentgen's spec imports them too,
 * so there is exactly one copy.
 */

/** The fixed container routes: unary (`""`, `"async"`) and streaming (`"stream"`, `"async_stream"`). */
export const containerRoutes = {
  unary: '/api/reasoning_engine',
  stream: '/api/stream_reasoning_engine',
} as const;

/**
 * The runtime's HTTP passthrough base of an engine: `{root}/reasoningEngines/v1/{resource}/api`,
 * whose `/{path}` reaches the container's `/{path}` (the runtime strips `/api`; google/agents-cli
 * `load_test.py`). `root` is the API's base URL, e.g. `https://us-central1-aiplatform.googleapis.com`.
 */
export function passthroughBase(root: string, resourceName: string): string {
  return `${root.replace(/\/+$/, '')}/reasoningEngines/v1/${resourceName}/api`;
}

/** How an operation answers: once (the unary route), or with an NDJSON stream (the streaming route). */
export type ResponseKind = 'unary' | 'stream';

/** An HTTP status with the `google.rpc.Status` code name the error body carries. */
export interface ErrorRow {
  readonly http: number;
  readonly status: RpcStatus;
}

/** Each condition the container routes refuse or fail with, as one row. */
export const containerErrors = {
  malformedJson: { http: 400, status: 'INVALID_ARGUMENT' },
  invalidEnvelope: { http: 400, status: 'INVALID_ARGUMENT' },
  invalidInput: { http: 400, status: 'INVALID_ARGUMENT' },
  wrongRoute: { http: 400, status: 'FAILED_PRECONDITION' },
  unknownOperation: { http: 404, status: 'NOT_FOUND' },
  unknownPath: { http: 404, status: 'NOT_FOUND' },
  methodNotAllowed: { http: 405, status: 'UNIMPLEMENTED' },
  bodyTooLarge: { http: 413, status: 'OUT_OF_RANGE' },
  unsupportedMediaType: { http: 415, status: 'INVALID_ARGUMENT' },
  handlerFailed: { http: 500, status: 'INTERNAL' },
  // What createContainer's node:http server refuses before any route sees the request (`clientError`).
  /** A request node:http cannot parse: bad chunked framing, duplicate Content-Length, a bad request line. */
  malformedRequest: { http: 400, status: 'INVALID_ARGUMENT' },
  /** Request headers over node:http's size limit; OUT_OF_RANGE, as a body over the limit. */
  headersTooLarge: { http: 431, status: 'OUT_OF_RANGE' },
  /** Headers or the whole request not received within node:http's timeouts. */
  requestTimeout: { http: 408, status: 'DEADLINE_EXCEEDED' },
} as const satisfies Readonly<Record<string, ErrorRow>>;

export type ContainerErrorCondition = keyof typeof containerErrors;

/** HTTP status of each `google.rpc.Status` code name (Google's HTTP mapping). */
export const httpStatusByRpcStatus = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  ABORTED: 409,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  UNKNOWN: 500,
  INTERNAL: 500,
  DATA_LOSS: 500,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
} as const;

export type RpcStatus = keyof typeof httpStatusByRpcStatus;

/** The code name a bare HTTP status stands for, when a response carries no Status body. */
export const rpcStatusByHttpStatus: Readonly<Record<number, RpcStatus>> = {
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

export function isRpcStatus(value: unknown): value is RpcStatus {
  return typeof value === 'string' && Object.hasOwn(httpStatusByRpcStatus, value);
}

/**
 * One entry of the deployed resource's `spec.classMethods`, the deploy manifest: `name` and
 * `api_mode` always; the deploy manifest agentgen writes also carries `description` and
 * `parameters` (an object schema of the keyword arguments), as the reference SDK sends them.
 */
export interface ManifestEntry {
  readonly name: string;
  readonly api_mode: string;
  readonly description?: string;
  readonly parameters?: { readonly [keyword: string]: unknown };
}

/**
 * What the server and the client need from a validator: `safeParse`, as every zod schema (classic
 * or zod/mini) has it. Structural, so the runtime imports no zod of either kind.
 */
export interface Validator {
  safeParse(
    data: unknown,
  ): { success: true; data: unknown } | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}
