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
 */
import { createHash } from 'node:crypto';
import type { A2APart, A2ATurn, A2ATurnUpdate } from '@agentgen/runtime/server';
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
    case 'data':
      // As ADK's A2A converter reads a data part that is no function call: its JSON, as text.
      return { text: JSON.stringify(part.data) };
    case 'file':
      return part.file.bytes !== undefined
        ? { inline_data: { data: part.file.bytes, mime_type: part.file.mimeType ?? 'application/octet-stream' } }
        : { file_data: { file_uri: part.file.uri, mime_type: part.file.mimeType ?? 'application/octet-stream' } };
  }
}

type WirePart = NonNullable<NonNullable<WireEvent['content']>['parts']>[number];

function toolParts(parts: readonly WirePart[]): A2APart[] {
  const out: A2APart[] = [];
  for (const part of parts) {
    if (part.function_call !== undefined)
      out.push({ kind: 'data', data: part.function_call as Record<string, unknown>, metadata: { adk_type: 'function_call' } });
    if (part.function_response !== undefined) {
      out.push({ kind: 'data', data: part.function_response as Record<string, unknown>, metadata: { adk_type: 'function_response' } });
    }
  }
  return out;
}

function textParts(parts: readonly WirePart[]): A2APart[] {
  return parts
    .filter((part) => typeof part.text === 'string' && part.text !== '' && part.thought !== true)
    .map((part) => ({ kind: 'text', text: part.text as string }));
}

export async function startA2ATurn(core: AppCore, turn: A2ATurn): Promise<AsyncIterable<A2ATurnUpdate>> {
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
    for await (const event of events) {
      if (event.error_code !== undefined || event.error_message !== undefined) {
        yield { type: 'status', state: 'failed', parts: [{ kind: 'text', text: 'The model could not answer this turn.' }] };
        return;
      }
      const parts = event.content?.parts ?? [];
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
  })();
}
