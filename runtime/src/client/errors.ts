/**
 * The client's errors: `AgentApiError` for what the service answers (a `google.rpc.Status` body,
 * an error line in a stream, or a response that breaks the protocol) and `AgentValidationError`
 * for input or a result that fails its operation's validator.
 */
import { httpStatusByRpcStatus, rpcStatusByHttpStatus } from '../contract.js';

export interface AgentApiErrorInit {
  readonly httpStatus: number;
  readonly code: number;
  readonly status: string;
  readonly message: string;
  readonly details?: readonly unknown[];
  readonly body?: string;
  readonly cause?: unknown;
  /** Default: read from `message` (see `AgentApiError.container`). */
  readonly container?: ContainerErrorStatus;
}

/** The agent container's own error, as the platform quotes it inside a FAILED_PRECONDITION message. */
export interface ContainerErrorStatus {
  /** The container's `error.code`: its HTTP status, e.g. 404. */
  readonly code: number;
  /** The container's rpc code name, e.g. `NOT_FOUND`. */
  readonly status: string;
  /** The container's own message, e.g. `Session s1 not found`. */
  readonly message: string;
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
  /**
   * When the container itself failed: its own `{code, status, message}`. The platform answers a
   * container failure 400 FAILED_PRECONDITION whose message reads `Reasoning Engine Execution
   * failed. … Error Details: <the container's body>`; when that body is an error with a status
   * (agentgen's `{"error": {"code", "status", "message"}}`, or the `{'error': {...}}` an ADK
   * agent's exception quotes), it is here, so a caller can branch on
   * `err.container?.status === 'NOT_FOUND'`. Undefined for any other error.
   */
  readonly container: ContainerErrorStatus | undefined;

  constructor(init: AgentApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.httpStatus = init.httpStatus;
    this.code = init.code;
    this.status = init.status;
    this.details = init.details ?? [];
    this.body = init.body;
    this.container = init.container ?? containerErrorIn(init.message);
  }
}

const failureStart = 'Reasoning Engine Execution failed.';
const detailsMarker = '\nError Details: ';
/** The longest details read: a container's error is short; a huge message is not searched whole. */
const maxDetails = 64 * 1024;
const rpcName = /^[A-Z][A-Z_]{1,40}$/;

/**
 * The container's error quoted in a platform failure message, or undefined. The message is
 * untrusted text: anything unexpected gives undefined, and this never throws.
 */
export function containerErrorIn(message: unknown): ContainerErrorStatus | undefined {
  try {
    if (typeof message !== 'string' || !message.startsWith(failureStart)) return undefined;
    const at = message.indexOf(detailsMarker);
    if (at === -1) return undefined;
    const details = message.slice(at + detailsMarker.length, at + detailsMarker.length + maxDetails).trim();
    if (!details.startsWith('{')) return undefined;
    const body: unknown = JSON.parse(details);
    if (!isRecord(body)) return undefined;
    if (isRecord(body['error'])) return statusOfError(body['error']);
    // An ADK agent on the platform: FastAPI's {"detail": "... Exception: 404 NOT_FOUND. {'error': {...}} ..."}.
    if (typeof body['detail'] === 'string') return statusInPythonRepr(body['detail'].slice(0, maxDetails));
    return undefined;
  } catch {
    return undefined; // details that are not JSON (`Service Unavailable`, a truncated body): no status to offer
  }
}

/** agentgen's container error body: `{"error": {"code", "status", "message"}}`; a known status or code is required. */
function statusOfError(error: Record<string, unknown>): ContainerErrorStatus | undefined {
  const code = typeof error['code'] === 'number' && Number.isInteger(error['code']) ? error['code'] : undefined;
  const named = typeof error['status'] === 'string' && rpcName.test(error['status']) ? error['status'] : undefined;
  const status = named ?? (code === undefined ? undefined : rpcStatusByHttpStatus[code]);
  if (status === undefined) return undefined;
  const message = typeof error['message'] === 'string' ? error['message'] : '';
  return { code: code ?? (httpStatusByRpcStatus as Readonly<Record<string, number>>)[status] ?? 500, status, message };
}

/** Python's repr of a google.genai / ADK error dict: `{'error': {'code': 404, 'message': '...', 'status': 'NOT_FOUND'}}`. */
const pythonError = /\{'error': \{'code': (\d{3}), 'message': ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"), 'status': '([A-Z][A-Z_]{1,40})'/;

function statusInPythonRepr(text: string): ContainerErrorStatus | undefined {
  const match = pythonError.exec(text);
  if (match === null) return undefined;
  const quoted = match[2] ?? '';
  const message = quoted.slice(1, -1).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
  return { code: Number(match[1]), status: match[3] ?? 'UNKNOWN', message };
}

/** Input or result that fails its operation's validator. Nothing was sent (input) or the result is unusable. */
export class AgentValidationError extends Error {
  readonly operation: string;
  readonly direction: 'input' | 'result';
  readonly issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
  override readonly name = 'AgentValidationError';

  constructor(operation: string, direction: 'input' | 'result', issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>) {
    super(
      `${direction === 'input' ? 'Invalid input for' : 'Invalid result from'} ${operation}: ` +
        issues.map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)'}: ${issue.message}`).join('; '),
    );
    this.operation = operation;
    this.direction = direction;
    this.issues = issues;
  }
}

const maxQuotedBody = 500;

export function quote(text: string): string {
  return text.length > maxQuotedBody ? `${text.slice(0, maxQuotedBody)}…` : text;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Turns the `error` member of a Status body (or of a stream error line) into an AgentApiError. */
export function errorFromStatus(httpStatus: number, error: unknown, fallbackCode: number): AgentApiError {
  if (typeof error === 'string') {
    return new AgentApiError({ httpStatus, code: fallbackCode, status: 'UNKNOWN', message: error });
  }
  const fields = isRecord(error) ? error : {};
  const code = typeof fields['code'] === 'number' ? fields['code'] : fallbackCode;
  return new AgentApiError({
    httpStatus,
    code,
    status: typeof fields['status'] === 'string' ? fields['status'] : (rpcStatusByHttpStatus[code] ?? 'UNKNOWN'),
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
    status: rpcStatusByHttpStatus[httpStatus] ?? 'UNKNOWN',
    message: `HTTP ${httpStatus}${statusText ? ` ${statusText}` : ''}: ${summary}`,
    body: text,
  });
}
