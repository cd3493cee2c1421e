/**
 * The engine refusing a request as invalid is the caller's mistake, answered as one. ADK's Vertex
 * AI services (Sessions, Memory Bank) let the engine's answer escape as the Google client's
 * `ApiError` (`status` 400: the engine's INVALID_ARGUMENT), which a server would answer 500
 * INTERNAL: the caller could not tell it was its own input (a chat id as `session_id`, an
 * `expire_time` in the past, a `*` in a memory's user). So AgentApp answers it 400
 * INVALID_ARGUMENT naming the field: the caller's own (`session_id`) where AgentApp knows it,
 * else the engine's, as the engine's message quotes it. The engine's message itself is not
 * repeated (a service's wording may quote the value); the error keeps it as its cause.
 */
import { type AgentError, isAgentError } from '@agentgen/runtime/server';
import { invalidArgument } from './errors.js';

/** The rule of Vertex AI's caller-chosen ids (CreateSessionRequest.session_id), for the message. */
export const chosenSessionIdRule = 'up to 63 characters of [a-z0-9-], starting with a letter and ending with a letter or a digit';

/** Whether a service's failure is an HTTP 400 from a Google API client (`status` or `code`): the engine's INVALID_ARGUMENT. */
export function isInvalidArgumentFromService(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || isAgentError(error)) return false;
  const { status, code } = error as { status?: unknown; code?: unknown };
  return status === 400 || code === 400;
}

/** The caller's error for a session id the session service refused; `where` names the field, e.g. `async_stream_query: session_id`. */
export function sessionIdRefused(where: string, cause: unknown): AgentError {
  return invalidArgument(`${where} was refused by the session service: Vertex AI's Sessions take a session id of ${chosenSessionIdRule}.`, cause);
}

/** A field path as the engine quotes it (`'session.expireTime'`, `'scope'`): a name, never a value. */
const quotedField = /'([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)'/;

/** The engine's own message of a client's error: the `error.message` of the JSON body Google's client quotes, else the error's message. */
function engineMessage(error: object): string {
  const text = String((error as { message?: unknown }).message ?? '');
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') return body.error.message;
  } catch {
    // not the JSON body: the message as it is
  }
  return text;
}

/** The caller's error for the engine's INVALID_ARGUMENT during `operation`, or undefined for any other failure. */
export function engineRefusal(operation: string, error: unknown): AgentError | undefined {
  if (!isInvalidArgumentFromService(error)) return undefined;
  const field = quotedField.exec(engineMessage(error as object))?.[1];
  const which = field === undefined ? '' : ` (its field '${field}')`;
  return invalidArgument(`${operation}: the engine's services refused the request as invalid${which}: INVALID_ARGUMENT.`, error);
}

/** `work`, with the engine's INVALID_ARGUMENT turned into the caller's error. */
export function withEngineRefusals<T>(operation: string, work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    throw engineRefusal(operation, error) ?? error;
  });
}
