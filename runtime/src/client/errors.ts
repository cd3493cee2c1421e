/**
 * The client's errors: `AgentApiError` for what the service answers (a `google.rpc.Status` body,
 * an error line in a stream, or a response that breaks the protocol) and `AgentValidationError`
 * for input or a result that fails its operation's validator.
 */
import { rpcStatusByHttpStatus } from '../contract.js';

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
  readonly operation: string;
  readonly direction: 'input' | 'result';
  readonly issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
  override readonly name = 'AgentValidationError';

  constructor(
    operation: string,
    direction: 'input' | 'result',
    issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  ) {
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
