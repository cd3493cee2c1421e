/**
 * `AgentError` and the container's error body: `{"error": {"code", "message", "status"}}`, after
 * `google.rpc.Status`, on both routes (as the response, or as the last line of a started stream).
 */
import { randomBytes } from 'node:crypto';
import { containerErrors, httpStatusByRpcStatus, isRpcStatus, type RpcStatus } from '../contract.js';

/**
 * A registered symbol marks every `AgentError`, so one made by another copy of this module (a
 * bundled runtime in a generated folder, or a second installed version) is still recognised.
 */
const agentErrorBrand = Symbol.for('@agentgen/runtime.AgentError');

/**
 * Throw from a handler to answer with a specific error, e.g. `new AgentError('NOT_FOUND', 'no such
 * session')` → 404. Any other thrown value becomes 500 INTERNAL.
 */
export class AgentError extends Error {
  override readonly name: string = 'AgentError';
  /** The `google.rpc.Status` code name, e.g. `NOT_FOUND`. */
  readonly status: RpcStatus;
  /** The HTTP status the container answers with, e.g. 404. */
  readonly httpStatus: number;

  constructor(status: RpcStatus, message: string, options?: { cause?: unknown }) {
    super(message, options);
    if (!isRpcStatus(status)) throw new TypeError(`AgentError: unknown google.rpc status ${JSON.stringify(status)}`);
    this.status = status;
    this.httpStatus = httpStatusByRpcStatus[status];
  }

  get [agentErrorBrand](): true {
    return true;
  }

  /** `instanceof` holds for an AgentError from any copy of the runtime. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isAgentError(value);
  }
}

export function isAgentError(value: unknown): value is AgentError {
  try {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[agentErrorBrand] === true;
  } catch {
    return false; // a proxy or getter that throws is no AgentError
  }
}

export interface ErrorAnswer {
  readonly status: RpcStatus;
  readonly http: number;
  /** What the caller is told. */
  readonly message: string;
  /** What the logger is told: the full text of an unexpected error; the caller's message otherwise. */
  readonly detail: string;
  /** For an unexpected error: the short id the caller's message and the log entry share. */
  readonly errorId: string | undefined;
}

/** A short random id that ties an `Internal error (id …)` answer to its log entry. */
export function newErrorId(): string {
  return randomBytes(5).toString('hex');
}

/**
 * The answer for a thrown value: its own status and message for an AgentError, else 500 INTERNAL
 * with `Internal error (id <errorId>)` only (the thrown message may hold anything: it goes to the
 * logger, under the same id). Never throws.
 */
export function describeError(error: unknown, operation: string | undefined): ErrorAnswer {
  let text: string;
  try {
    if (isAgentError(error) && isRpcStatus(error.status)) {
      const message = String(error.message);
      return { status: error.status, http: httpStatusByRpcStatus[error.status], message, detail: message, errorId: undefined };
    }
    text = error instanceof Error ? String(error.message) : String(error);
  } catch {
    // A thrown value whose getters or toString throw: say so rather than fail again.
    text = 'a value that cannot be described';
  }
  const row = containerErrors.handlerFailed;
  const where = operation === undefined ? 'the request' : `operation ${JSON.stringify(operation)}`;
  const errorId = newErrorId();
  return { status: row.status, http: row.http, message: `Internal error (id ${errorId})`, detail: `${where} failed: ${text}`, errorId };
}

export function errorBody(status: RpcStatus, code: number, message: string): string {
  return JSON.stringify({ error: { code, message, status } });
}

/** The error as a last stream line. */
export function errorLine(status: RpcStatus, code: number, message: string): string {
  return `${errorBody(status, code, message)}\n`;
}
