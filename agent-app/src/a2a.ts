/**
 * AgentApp's A2A face: each A2A message is a turn of the conversation (`async_stream_query`'s own
 * path: the same runner, session services and abort), and the A2A context is its session, kept
 * where AgentApp keeps sessions, so any replica and the engine's Sessions continue it.
 *
 * Ids as ADK's own A2A executor chooses them (google/adk-js `a2a/agent_executor.ts`, and
 * adk-python's `A2aAgentExecutor`): the user is `A2A_USER_{contextId}`, so one context never reads
 * another's sessions; the session id is the context id when the engine's Sessions take it as a
 * caller-chosen id (`[a-z][a-z0-9-]{0,62}`), else a digest of it, the same on every replica.
 *
 * What the caller sees of the turn, in ADK's A2A conventions (so ADK's `RemoteA2AAgent` reads it
 * back as ADK events): tool calls and results as `working` status updates whose data parts carry
 * `adk_type: function_call | function_response`; the agent's text as artifact chunks (a partial
 * event appends to the turn's artifact, and the complete event that follows replaces it rather
 * than repeating it); a model error as `failed`. The runtime ends the task `completed` after.
 *
 * A long-running tool (`LongRunningFunctionTool`: its call's id is in the event's
 * `long_running_tool_ids`) ends the turn `input-required` (`auth-required` for ADK's
 * `adk_request_credential`), as ADK's own executors do (adk-python
 * `a2a/converters/long_running_functions.py` with `a2a_agent_executor_impl.py`, adk-js
 * `a2a/event_processor_utils.js`): the call, and the tool's first answer if it gave one, are held
 * back from the turn's progress and sent in that last status, each call marked
 * `adk_is_long_running`. The caller answers with a message in the same task whose data part is
 * the function response (`adk_type: function_response`, with the call's `id` and `name`), and
 * the runner resumes the turn from it, as ADK's part converter reads that part. A message that
 * continues the task without answering every call it waits on is not run: the task waits again,
 * with the calls and a text that says what is missing (adk-python `handle_user_input`, adk-js
 * `getUnansweredRequestEvent`).
 */
import { createHash } from 'node:crypto';
import type { A2AMessage, A2APart, A2ATurn, A2ATurnUpdate } from '@agentgen/runtime/server';
import { startStreamQuery } from './conversation.js';
import type { AppCore } from './core.js';
import type { WireEvent } from './wire.js';

const callerChosenSessionId = /^[a-z][a-z0-9-]{0,62}$/;

/** The session an A2A context lives in: the same for a context on every replica. */
export function sessionIdForContext(contextId: string): string {
  if (callerChosenSessionId.test(contextId)) return contextId;
  return `a2a-${createHash('sha256').update(contextId).digest('hex').slice(0, 40)}`;
}

export function userIdForContext(contextId: string): string {
  return `A2A_USER_${contextId}`;
}

/** An A2A part as the wire's content part (what `async_stream_query` takes as `message`). */
function wirePart(part: A2APart): Record<string, unknown> {
  switch (part.kind) {
    case 'text':
      return { text: part.text };
    case 'data': {
      // A function call or response (how a caller answers a long-running tool) as ADK's A2A part
      // converter reads it, by its `adk_type`; any other data part as its JSON, as text.
      const type = part.metadata?.[adkTypeKey];
      if (type === 'function_response') return { function_response: part.data };
      if (type === 'function_call') return { function_call: part.data };
      return { text: JSON.stringify(part.data) };
    }
    case 'file':
      return part.file.bytes !== undefined
        ? { inline_data: { data: part.file.bytes, mime_type: part.file.mimeType ?? 'application/octet-stream' } }
        : { file_data: { file_uri: part.file.uri, mime_type: part.file.mimeType ?? 'application/octet-stream' } };
  }
}

type WirePart = NonNullable<NonNullable<WireEvent['content']>['parts']>[number];

/** ADK's metadata keys on an A2A data part (adk-python `part_converter.py`, with the `adk_` prefix). */
const adkTypeKey = 'adk_type';
const adkLongRunningKey = 'adk_is_long_running';
/** The framework's call that asks the caller for credentials: the task waits in `auth-required`. */
const requestCredentialCall = 'adk_request_credential';

function toolPart(part: WirePart): A2APart | undefined {
  if (part.function_call !== undefined) {
    return { kind: 'data', data: part.function_call as Record<string, unknown>, metadata: { [adkTypeKey]: 'function_call' } };
  }
  if (part.function_response !== undefined) {
    return { kind: 'data', data: part.function_response as Record<string, unknown>, metadata: { [adkTypeKey]: 'function_response' } };
  }
  return undefined;
}

/**
 * The long-running calls of a turn and the tool's first answers to them, in order, each once: what
 * the turn's last status carries. Complete events only, as ADK's executors collect them.
 */
class LongRunningCalls {
  readonly parts: A2APart[] = [];
  readonly #ids = new Set<string>();
  #credential = false;

  /** Takes what belongs to a long-running call out of `event`'s parts, and gives back the rest. */
  take(event: WireEvent, parts: readonly WirePart[]): WirePart[] {
    const ids: unknown = event.long_running_tool_ids;
    const longRunning = new Set(Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : []);
    const kept: WirePart[] = [];
    for (const part of parts) {
      const call = part.function_call as { id?: unknown; name?: unknown } | undefined;
      const response = part.function_response as { id?: unknown } | undefined;
      const callId = typeof call?.id === 'string' && longRunning.has(call.id) ? call.id : undefined;
      const responseId = typeof response?.id === 'string' && this.#ids.has(response.id) ? response.id : undefined;
      if (callId === undefined && responseId === undefined) {
        kept.push(part);
        continue;
      }
      if (event.partial === true) continue;
      const a2a = toolPart(part) as A2APart & { kind: 'data' };
      if (callId !== undefined) {
        if (this.#ids.has(callId)) continue;
        this.#ids.add(callId);
        if (call?.name === requestCredentialCall) this.#credential = true;
        this.parts.push({ ...a2a, metadata: { ...a2a.metadata, [adkLongRunningKey]: true } });
      } else {
        this.parts.push(a2a);
      }
    }
    return kept;
  }

  /** The status that ends a turn with calls waiting for the caller, if it has any. */
  status(): A2ATurnUpdate | undefined {
    if (this.#ids.size === 0) return undefined;
    return { type: 'status', state: this.#credential ? 'auth-required' : 'input-required', parts: this.parts };
  }
}

function toolParts(parts: readonly WirePart[]): A2APart[] {
  return parts.map(toolPart).filter((part) => part !== undefined);
}

function textParts(parts: readonly WirePart[]): A2APart[] {
  return parts
    .filter((part) => typeof part.text === 'string' && part.text !== '' && part.thought !== true)
    .map((part) => ({ kind: 'text', text: part.text as string }));
}

/** The long-running calls `turn` continues a task for and does not answer, as the status that waits for them again. */
function unanswered(turn: A2ATurn): A2ATurnUpdate | undefined {
  const calls = (turn.awaiting?.parts ?? []).filter(
    (part): part is A2APart & { kind: 'data' } =>
      part.kind === 'data' &&
      part.metadata?.[adkTypeKey] === 'function_call' &&
      part.metadata[adkLongRunningKey] === true &&
      typeof part.data['id'] === 'string',
  );
  const answered = new Set(
    turn.message.parts.flatMap((part) => (part.kind === 'data' && part.metadata?.[adkTypeKey] === 'function_response' ? [part.data['id']] : [])),
  );
  const missing = calls.filter((call) => !answered.has(call.data['id']));
  if (missing.length === 0) return undefined;
  const ids = missing.map((call) => String(call.data['id'])).join(', ');
  return {
    type: 'status',
    state: missing.some((call) => call.data['name'] === requestCredentialCall) ? 'auth-required' : 'input-required',
    parts: [
      ...missing,
      { kind: 'text', text: `No function response for the call ${ids}: answer it with a data part (adk_type function_response) carrying its id and name.` },
    ],
  };
}

/**
 * Whether `message` answers a long-running tool's call (a data part `adk_type: function_response`):
 * it continues its task on any replica, since the call waits in the session, which every replica
 * reads; the runner resumes from it there as here. The task's own record (its `awaiting`, which
 * tells a partial answer) stays with the replica that ran it.
 */
export function answersCalls(message: A2AMessage): boolean {
  return message.parts.some((part) => part.kind === 'data' && part.metadata?.[adkTypeKey] === 'function_response');
}

export async function startA2ATurn(core: AppCore, turn: A2ATurn): Promise<AsyncIterable<A2ATurnUpdate>> {
  const waitAgain = unanswered(turn);
  if (waitAgain !== undefined) {
    return (async function* stillWaiting(): AsyncGenerator<A2ATurnUpdate, void, undefined> {
      yield waitAgain;
    })();
  }
  const events = await startStreamQuery(
    core,
    {
      user_id: userIdForContext(turn.contextId),
      session_id: sessionIdForContext(turn.contextId),
      message: { role: 'user', parts: turn.message.parts.map(wirePart) },
    },
    'a2a',
    turn.signal,
  );
  return (async function* updates(): AsyncGenerator<A2ATurnUpdate, void, undefined> {
    /** The artifact a run of partial events is writing, until its complete event replaces it. */
    let open: string | undefined;
    let answers = 0;
    const waiting = new LongRunningCalls();
    for await (const event of events) {
      if (event.error_code !== undefined || event.error_message !== undefined) {
        yield { type: 'status', state: 'failed', parts: [{ kind: 'text', text: 'The model could not answer this turn.' }] };
        return;
      }
      const parts = waiting.take(event, event.content?.parts ?? []);
      const tools = toolParts(parts);
      if (tools.length > 0) yield { type: 'status', state: 'working', parts: tools };
      const text = textParts(parts);
      if (text.length === 0) continue;
      if (event.partial === true) {
        const append = open !== undefined;
        open ??= `answer-${++answers}`;
        yield { type: 'artifact', artifactId: open, parts: text, append, lastChunk: false };
      } else {
        yield { type: 'artifact', artifactId: open ?? `answer-${++answers}`, parts: text, append: false, lastChunk: true };
        open = undefined;
      }
    }
    const end = waiting.status();
    if (end !== undefined) yield end;
  })();
}
