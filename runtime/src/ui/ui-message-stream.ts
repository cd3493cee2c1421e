/**
 * An agent turn as the Vercel AI SDK's UI message stream (the stream `useChat` and assistant-ui's
 * AI SDK adapter read), and the `Response` a server route returns. The `ai` package is an optional peer: this module imports only its types, so the
 * chunks are checked against the real protocol at compile time and nothing of `ai` is bundled.
 * No `node:` imports: it runs in Node, edge runtimes and browsers.
 */
import type { FinishReason, UIMessageChunk } from 'ai';
import { genericError, randomId, TurnReader, type TurnStep } from './adk-turn.js';
import { untilError } from './until-error.js';

export interface UIMessageStreamOptions {
  /** The assistant message's id, sent in the `start` chunk (the reader makes one up without it). */
  readonly messageId?: string;
  /** Makes an id for a text part, a reasoning part or a tool call without one. Default: `crypto.randomUUID()`. */
  readonly newId?: (kind: 'text' | 'reasoning' | 'tool') => string;
  /**
   * The text an `error` chunk carries for something the event stream threw (an `AgentApiError`,
   * a network failure). Default: `The agent stream failed`, the real error going to the server's
   * log (`console.error`): a thrown message may hold addresses or tokens. `errorMessage` (exported
   * here) is the opt-in that sends the thrown message as it is.
   */
  readonly onError?: (error: unknown) => string;
}

/** The chunks of one step. Tool calls are reported as run by the agent (`providerExecuted`), so `useChat` never runs them itself. */
function chunksOf(step: TurnStep): UIMessageChunk[] {
  switch (step.kind) {
    case 'text-start':
      return [{ type: step.channel === 'text' ? 'text-start' : 'reasoning-start', id: step.id }];
    case 'text-delta':
      return [{ type: step.channel === 'text' ? 'text-delta' : 'reasoning-delta', id: step.id, delta: step.delta }];
    case 'text-end': {
      // A part the final text replaced says so (the AI SDK keeps providerMetadata on the part): a UI hides it.
      const replaced = step.replacedBy === undefined ? {} : { providerMetadata: { agentgen: { replacedBy: step.replacedBy } } };
      return [{ type: step.channel === 'text' ? 'text-end' : 'reasoning-end', id: step.id, ...replaced }];
    }
    case 'tool-call':
      return [{ type: 'tool-input-available', toolCallId: step.id, toolName: step.name, input: step.args, providerExecuted: true }];
    case 'tool-result':
      return [{ type: 'tool-output-available', toolCallId: step.id, output: step.response, providerExecuted: true }];
    case 'error':
      return [{ type: 'error', errorText: step.code === undefined ? step.message : `${step.code}: ${step.message}` }];
  }
}

/**
 * ADK events (what a generated client's `async_stream_query` yields) → UI message chunks:
 * `start`, text and reasoning start/delta/end, `tool-input-available` with the exact arguments,
 * `tool-output-available`, `error`, `finish`. Pulled on demand; cancelling the stream returns the
 * event iterator, which cancels the agent request. A failed run ends as in `ag-ui.ts`: the open
 * text closed, one `error`, nothing of the agent after it (its request is cancelled), then
 * `finish` with `finishReason: 'error'`.
 */
export function toUIMessageStream(events: AsyncIterable<unknown>, options: UIMessageStreamOptions = {}): ReadableStream<UIMessageChunk> {
  const turn = new TurnReader(options.newId ?? randomId);
  const onError = options.onError ?? genericError;
  let iterator: AsyncIterator<unknown> | undefined;
  let failed = false;
  return new ReadableStream<UIMessageChunk>({
    start(controller) {
      controller.enqueue(options.messageId === undefined ? { type: 'start' } : { type: 'start', messageId: options.messageId });
    },
    async pull(controller) {
      try {
        iterator ??= events[Symbol.asyncIterator]();
        // Read until a step produces chunks, so every pull enqueues something or ends the stream.
        for (;;) {
          const next = await iterator.next();
          if (next.done === true) break;
          const [steps, erred] = untilError(turn.read(next.value));
          const chunks = steps.flatMap(chunksOf);
          if (erred) {
            // The agent's error ends the turn: what follows it is dropped, its request cancelled.
            failed = true;
            for (const chunk of chunks) controller.enqueue(chunk);
            void iterator.return?.()?.catch(() => undefined);
            break;
          }
          if (chunks.length > 0) {
            for (const chunk of chunks) controller.enqueue(chunk);
            return;
          }
        }
      } catch (error) {
        failed = true;
        for (const chunk of turn.end().flatMap(chunksOf)) controller.enqueue(chunk);
        controller.enqueue({ type: 'error', errorText: onError(error) });
        // A bad event ends the turn: let the source release its request.
        void iterator?.return?.()?.catch(() => undefined);
      }
      for (const chunk of turn.end().flatMap(chunksOf)) controller.enqueue(chunk);
      const finishReason: FinishReason = failed ? 'error' : turn.finishReason;
      controller.enqueue({ type: 'finish', finishReason });
      controller.close();
    },
    async cancel() {
      await iterator?.return?.();
    },
  });
}

/** The headers the AI SDK sends with a UI message stream (`UI_MESSAGE_STREAM_HEADERS` in `ai`). */
export const uiMessageStreamHeaders: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
};

/** Each chunk as one server-sent event of JSON, then `[DONE]`: the framing of `ai`'s `JsonToSseTransformStream`. */
function toSse(chunks: ReadableStream<UIMessageChunk>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return chunks.pipeThrough(
    new TransformStream<UIMessageChunk, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
      },
      flush(controller) {
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
      },
    }),
  );
}

/**
 * A `Response` carrying the turn as a UI message stream, what a Next.js route handler, Hono or any
 * fetch-style server returns to `useChat` (Express: pipe its body). `init` adds a status or headers.
 */
export function uiMessageStreamResponse(events: AsyncIterable<unknown>, init: ResponseInit & UIMessageStreamOptions = {}): Response {
  const { messageId, newId, onError, ...responseInit } = init;
  const headers = new Headers(responseInit.headers);
  for (const [name, value] of Object.entries(uiMessageStreamHeaders)) if (!headers.has(name)) headers.set(name, value);
  const stream = toUIMessageStream(events, { messageId, newId, onError });
  return new Response(toSse(stream), { ...responseInit, status: responseInit.status ?? 200, headers });
}
