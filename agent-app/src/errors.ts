/**
 * AgentApp's errors for a caller's mistake (bad input, a missing session) are the runtime's
 * `AgentError`, so the generated server answers them with their own status (400, 404, 409).
 * Anything else AgentApp lets escape (an ADK or service failure) is a real internal error: a 500.
 */
import { AgentError } from '@agentgen/runtime/server';

export function invalidArgument(message: string, cause?: unknown): AgentError {
  return new AgentError('INVALID_ARGUMENT', message, cause === undefined ? undefined : { cause });
}

export function sessionNotFound(userId: string, sessionId: string): AgentError {
  return new AgentError('NOT_FOUND', `Session ${JSON.stringify(sessionId)} of user ${JSON.stringify(userId)} not found.`);
}

export function sessionExists(sessionId: string): AgentError {
  return new AgentError('ALREADY_EXISTS', `Session ${JSON.stringify(sessionId)} already exists.`);
}
