/**
 * `@agentgen/runtime/ui/ag-ui`: an agent's turn as AG-UI events (`@ag-ui/core` 1.x: CopilotKit,
 * assistant-ui's AG-UI adapter, AG-UI's `HttpAgent`). `@ag-ui/core` is an optional peer
 * dependency, loaded only by this entry (for its `EventType` values); the client entry never
 * imports it. No `node:` imports: it runs in browsers too.
 *
 * The order is AG-UI's: `RUN_STARTED` first; each text message START, CONTENT…, END; reasoning
 * inside REASONING_START/END; each tool call START, ARGS (the exact arguments as one JSON text),
 * END, then its TOOL_CALL_RESULT; nothing left open; and last `RUN_FINISHED`, or `RUN_ERROR`
 * after which nothing follows.
 */
import { type AGUIEvent, EventType } from '@ag-ui/core';
import { genericError, randomId, TurnReader, type TurnStep } from './adk-turn.js';
import { untilError } from './until-error.js';

export { errorMessage } from './adk-turn.js';
export { handoffEvents } from './handoff-events.js';

export interface AgUiIds {
  /** The conversation's id (the session id is a natural one). Default: a new UUID. */
  readonly threadId?: string;
  /** This run's id. Default: the first event's `invocation_id`, else a new UUID. */
  readonly runId?: string;
  /** Makes the id of a message, a reasoning message, a tool call without one, or a tool result message. Default: `crypto.randomUUID()`. */
  readonly newId?: (kind: 'text' | 'reasoning' | 'tool' | 'tool-result') => string;
  /**
   * The `message` of a `RUN_ERROR` for something the event stream threw. Default: `The agent
   * stream failed`, the real error going to the server's log (`console.error`); `errorMessage`
   * (exported here) is the opt-in that sends the thrown message as it is.
   */
  readonly onError?: (error: unknown) => string;
}

/** The name of the `CUSTOM` event that says a message was replaced by the final text of its event (`value: { messageId, replacedBy }`). */
export const replacedEvent = 'agentgen.replaced';

/** The `CUSTOM` event after the end of a message the final text replaced, or none. */
function replaced(messageId: string, replacedBy: string | undefined): AGUIEvent[] {
  return replacedBy === undefined ? [] : [{ type: EventType.CUSTOM, name: replacedEvent, value: { messageId, replacedBy } }];
}

/** The AG-UI events of one step; `lastMessageId` is the assistant message a tool call belongs to. */
function eventsOf(step: TurnStep, newId: () => string, lastMessageId: string | undefined): AGUIEvent[] {
  switch (step.kind) {
    case 'text-start':
      return step.channel === 'text'
        ? [{ type: EventType.TEXT_MESSAGE_START, messageId: step.id, role: 'assistant' }]
        : [
            { type: EventType.REASONING_START, messageId: step.id },
            { type: EventType.REASONING_MESSAGE_START, messageId: step.id, role: 'reasoning' },
          ];
    case 'text-delta':
      return [{ type: step.channel === 'text' ? EventType.TEXT_MESSAGE_CONTENT : EventType.REASONING_MESSAGE_CONTENT, messageId: step.id, delta: step.delta }];
    case 'text-end':
      return step.channel === 'text'
        ? [
            { type: EventType.TEXT_MESSAGE_END, messageId: step.id },
            // AG-UI cannot take back a delta: a message the final text replaced is said so, for a UI to hide it.
            ...replaced(step.id, step.replacedBy),
          ]
        : [
            { type: EventType.REASONING_MESSAGE_END, messageId: step.id },
            { type: EventType.REASONING_END, messageId: step.id },
            ...replaced(step.id, step.replacedBy),
          ];
    case 'tool-call':
      return [
        {
          type: EventType.TOOL_CALL_START,
          toolCallId: step.id,
          toolCallName: step.name,
          ...(lastMessageId === undefined ? {} : { parentMessageId: lastMessageId }),
        },
        { type: EventType.TOOL_CALL_ARGS, toolCallId: step.id, delta: JSON.stringify(step.args) },
        { type: EventType.TOOL_CALL_END, toolCallId: step.id },
      ];
    case 'tool-result':
      return [{ type: EventType.TOOL_CALL_RESULT, messageId: newId(), toolCallId: step.id, content: JSON.stringify(step.response), role: 'tool' }];
    case 'error':
      return [{ type: EventType.RUN_ERROR, message: step.message, ...(step.code === undefined ? {} : { code: step.code }) }];
  }
}

/**
 * ADK events (what a generated client's `async_stream_query` yields) → AG-UI events. Stopping the
 * iteration early (`break`) returns the event iterator, which cancels the agent request; so does
 * an error, which ends the run with `RUN_ERROR`.
 */
export async function* toAgUiEvents(events: AsyncIterable<unknown>, ids: AgUiIds = {}): AsyncGenerator<AGUIEvent, void, undefined> {
  const newId = ids.newId ?? randomId;
  const turn = new TurnReader((kind) => newId(kind));
  const threadId = ids.threadId ?? randomId();
  let runId = ids.runId;
  let lastMessageId: string | undefined;
  const started = (event: unknown): AGUIEvent => {
    const invocation = typeof event === 'object' && event !== null ? (event as { invocation_id?: unknown }).invocation_id : undefined;
    runId ??= typeof invocation === 'string' && invocation !== '' ? invocation : randomId();
    return { type: EventType.RUN_STARTED, threadId, runId };
  };
  const map = function* (steps: TurnStep[]): Generator<AGUIEvent> {
    for (const step of steps) {
      if (step.kind === 'text-start' && step.channel === 'text') lastMessageId = step.id;
      yield* eventsOf(step, () => newId('tool-result'), lastMessageId);
    }
  };
  let isStarted = false;
  try {
    for await (const event of events) {
      if (!isStarted) {
        isStarted = true;
        yield started(event);
      }
      const [steps, erred] = untilError(turn.read(event));
      // RUN_ERROR is the last event of a run: the steps after it, and the rest of the stream, are dropped.
      yield* map(steps);
      if (erred) return;
    }
  } catch (error) {
    if (!isStarted) yield started(undefined);
    yield* map(turn.end());
    yield { type: EventType.RUN_ERROR, message: (ids.onError ?? genericError)(error) };
    return;
  }
  if (!isStarted) yield started(undefined);
  yield* map(turn.end());
  // `started` set runId: RUN_STARTED always comes first.
  yield { type: EventType.RUN_FINISHED, threadId, runId: runId! };
}

/**
 * A `Response` of AG-UI events as server-sent events (`data: <json>` per event), the framing
 * AG-UI's `HttpAgent` reads, for a route that serves an AG-UI client.
 */
export function agUiEventsResponse(events: AsyncIterable<unknown>, ids: AgUiIds = {}, init: ResponseInit = {}): Response {
  const encoder = new TextEncoder();
  const source = toAgUiEvents(events, ids);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await source.next();
      if (next.done === true) controller.close();
      else controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
    },
    async cancel() {
      await source.return(undefined);
    },
  });
  const headers = new Headers(init.headers);
  if (!headers.has('content-type')) headers.set('content-type', 'text/event-stream');
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-cache');
  return new Response(body, { ...init, headers });
}
