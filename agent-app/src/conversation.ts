/**
 * `async_stream_query` / `stream_query`: one conversation turn, every event
 * of it (tool calls with their exact arguments, tool results, model events) streamed in
 * wire form as ADK produces it.
 *
 * The returned promise settles before the first event: bad input and a missing session
 * reject it, so a server can still answer them with a status code; only what happens during
 * the turn arrives inside the stream.
 */
import type { AppCore } from './core.js';
import { invalidArgument } from './errors.js';
import { inputObject, messageContent, optionalArray, optionalString, requiredString } from './inputs.js';
import { eventFromWire, eventToWire, runConfigFromWire, type WireEvent } from './wire.js';

export async function startStreamQuery(
  core: AppCore,
  raw: unknown,
  operation: string,
  signal: AbortSignal | undefined,
): Promise<AsyncGenerator<WireEvent, void, undefined>> {
  const input = inputObject(raw, operation);
  const userId = requiredString(input, 'user_id', operation);
  const newMessage = messageContent(input['message'], operation);
  const sessionId = optionalString(input, 'session_id', operation);
  const seedEvents = optionalArray(input, 'session_events', operation);
  if (seedEvents !== undefined && sessionId !== undefined) {
    throw invalidArgument(`${operation}: session_events seeds a new session and cannot be given together with session_id.`);
  }
  const events = (seedEvents ?? []).map((event, i) => eventFromWire(event, `${operation}: session_events[${i}]`));
  let runConfig: Record<string, unknown> | undefined;
  try {
    runConfig = runConfigFromWire(input['run_config']);
  } catch (error) {
    throw invalidArgument(`${operation}: ${(error as Error).message}`);
  }
  if (sessionId !== undefined) await core.requireSession(userId, sessionId);

  return (async function* turn() {
    if (signal?.aborted) return;
    const id = sessionId ?? (await core.createSession({ userId, events })).id;
    const run = core.runner.runAsync({
      userId,
      sessionId: id,
      newMessage,
      ...(runConfig === undefined ? {} : { runConfig }),
      ...(signal === undefined ? {} : { abortSignal: signal }),
    });
    for await (const event of run) {
      if (signal?.aborted) return;
      yield eventToWire(event);
    }
  })();
}
