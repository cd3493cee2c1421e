/**
 * A session service that refuses a caller-chosen session id. Vertex AI's Sessions take only up to
 * 63 characters of `[a-z0-9-]`, starting with a letter and ending with a letter or a digit; ADK's
 * `VertexAiSessionService` lets the engine's answer escape as the Google client's `ApiError`
 * (`status` 400, the engine's INVALID_ARGUMENT), which a server would answer 500 INTERNAL: the
 * caller could not tell it was its own input. It is the caller's mistake, so it is answered as one,
 * naming the field. The engine's own message is not repeated (a service's wording may quote the
 * value); the error keeps it as its cause, for a debugger.
 */
import type { AgentError } from '@agentgen/runtime/server';
import { invalidArgument } from './errors.js';

/** The rule of Vertex AI's caller-chosen ids (CreateSessionRequest.session_id), for the message. */
export const chosenSessionIdRule = 'up to 63 characters of [a-z0-9-], starting with a letter and ending with a letter or a digit';

/** Whether a session service's failure is an HTTP 400 from a Google API client (`status` or `code`): the engine's INVALID_ARGUMENT. */
export function isInvalidArgumentFromService(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { status, code } = error as { status?: unknown; code?: unknown };
  return status === 400 || code === 400;
}

/** The caller's error for a session id the session service refused; `where` names the field, e.g. `async_stream_query: session_id`. */
export function sessionIdRefused(where: string, cause: unknown): AgentError {
  return invalidArgument(`${where} was refused by the session service: Vertex AI's Sessions take a session id of ${chosenSessionIdRule}.`, cause);
}
