/**
 * The one error type AgentApp throws for a caller's mistake (bad input, missing session).
 *
 * It carries the answer the container should give: the generated server's runtime reads the
 * `google.rpc` status name from `rpcStatus` (as on its own `AgentError`); `status`, `code`
 * and `httpStatus` carry the same answer for other servers (name, HTTP number). Anything
 * else AgentApp lets escape (an ADK or service failure) is a real internal error: a 500.
 */
export type AgentAppErrorStatus = 'INVALID_ARGUMENT' | 'NOT_FOUND' | 'ALREADY_EXISTS';

const httpByStatus: Readonly<Record<AgentAppErrorStatus, number>> = {
  INVALID_ARGUMENT: 400,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
};

export class AgentAppError extends Error {
  override readonly name = 'AgentAppError';
  /** google.rpc status name, e.g. `NOT_FOUND`; `rpcStatus` is the same, for the generated server. */
  readonly status: AgentAppErrorStatus;
  readonly rpcStatus: AgentAppErrorStatus;
  /** HTTP status; `code` and `httpStatus` are the same number (servers read either). */
  readonly code: number;
  readonly httpStatus: number;

  constructor(status: AgentAppErrorStatus, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
    this.rpcStatus = status;
    this.code = httpByStatus[status];
    this.httpStatus = this.code;
  }
}

export function invalidArgument(message: string, cause?: unknown): AgentAppError {
  return new AgentAppError('INVALID_ARGUMENT', message, cause === undefined ? undefined : { cause });
}

export function sessionNotFound(userId: string, sessionId: string): AgentAppError {
  return new AgentAppError('NOT_FOUND', `Session ${JSON.stringify(sessionId)} of user ${JSON.stringify(userId)} not found.`);
}

export function isAgentAppError(value: unknown): value is AgentAppError {
  return value instanceof AgentAppError;
}
