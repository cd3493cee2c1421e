/**
 * `async_stream_query` / `stream_query`: one conversation turn, every event
 * of it (tool calls with their exact arguments, tool results, model events) streamed in
 * wire form as ADK produces it.
 *
 * A `session_id` that is not found names a new session under that id, created with the turn, as
 * ADK's runner does with `auto_create_session=True` (adk-python runners.py). The reference AdkApp
 * builds its runner without it and so raises "Session not found" (python-aiplatform
 * agentplatform/agent_engines/templates/adk.py @490a052, `set_up`): AgentApp differs on purpose,
 * for clients that choose their session ids (docs/agent-app.md says why); `@google/adk`'s
 * TypeScript runner has no such option, so AgentApp creates it. `session_events` seeds only a
 * session AgentApp makes without an id; given with a `session_id` it is refused when it holds
 * events and ignored when empty, as the reference (`if session_id and session_events`).
 *
 * The returned promise settles before the first event, once the session is found or created: bad
 * input, and a session id the session service refuses, reject it, so a server can still answer
 * them with a status code; only what happens during the turn arrives inside the stream. The turn's
 * events are stored behind it, in order, and the stream ends once they all are (core.ts `runTurn`).
 */
import type { AppCore } from './core.js';
import { invalidArgument } from './errors.js';
import { inputObject, messageContent, optionalArray, optionalId, requiredId } from './inputs.js';
import { labelsOf } from './run-labels.js';
import { eventFromWire, eventToWire, runConfigFromWire, type WireEvent } from './wire.js';

export async function startStreamQuery(
  core: AppCore,
  raw: unknown,
  operation: string,
  signal: AbortSignal | undefined,
): Promise<AsyncGenerator<WireEvent, void, undefined>> {
  const input = inputObject(raw, operation);
  const userId = requiredId(input, 'user_id', operation);
  const newMessage = messageContent(input['message'], operation);
  const sessionId = optionalId(input, 'session_id', operation);
  const seedEvents = optionalArray(input, 'session_events', operation);
  if (seedEvents !== undefined && seedEvents.length > 0 && sessionId !== undefined) {
    throw invalidArgument(`${operation}: session_events seeds a new session and cannot be given together with session_id.`);
  }
  const events = (seedEvents ?? []).map((event, i) => eventFromWire(event, `${operation}: session_events[${i}]`));
  let runConfig: Record<string, unknown> | undefined;
  try {
    runConfig = runConfigFromWire(input['run_config']);
  } catch (error) {
    throw invalidArgument(`${operation}: ${(error as Error).message}`);
  }

  if (signal?.aborted) return (async function* stopped() {})();
  // Found or created before the first event, so that a session id the session service refuses
  // (Vertex AI's take only [a-z0-9-]; useChat's ids have capitals) is answered with a status code.
  // The read that finds it is the turn's only read: the runner is given what it loaded.
  const session =
    sessionId === undefined
      ? await core.createSession({ userId, events })
      : (await core.ensureSession({ userId, sessionId, sessionIdField: `${operation}: session_id` })).session;
  return (async function* turn() {
    if (signal?.aborted) return;
    const run = core.runTurn({
      session,
      newMessage,
      ...(runConfig === undefined ? {} : { runConfig }),
      signal,
      labelled: labelsOf(runConfig) !== undefined,
    });
    for await (const event of run) yield eventToWire(event);
  })();
}
