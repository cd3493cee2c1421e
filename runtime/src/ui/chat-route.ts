/**
 * The server route between `useChat` and an agent: `agentChatRoute` answers the request the AI
 * SDK's `DefaultChatTransport` sends (`POST` with JSON `{ id, messages, trigger, messageId, ...body }`)
 * with the agent's turn as a UI message stream. The app says how the chat becomes the agent's
 * input (usually the last user message's text, and `chatSessionId` of the chat's id), so the
 * browser never holds the agent's credentials: the route's generated client does. Web
 * `Request`/`Response` only, so it serves Next.js route handlers, Hono, Bun, Deno and Node's
 * `fetch`-style adapters as it is.
 */
import type { UIMessage } from 'ai';
import { boundedText, chatBody } from './chat-body.js';
import { ChatRequestError } from './chat-request-error.js';
import { type UIMessageStreamOptions, uiMessageStreamResponse } from './ui-message-stream.js';

export { lastUserText } from './chat-body.js';
export { ChatRequestError } from './chat-request-error.js';

/** The chat request as `useChat` sent it. */
export interface AgentChatRequest<Message extends UIMessage = UIMessage> {
  /** The chat's id (`useChat`'s `id`): the key of the agent's session, through `chatSessionId`. */
  readonly chatId: string | undefined;
  readonly messages: Message[];
  /** `submit-message` or `regenerate-message`. */
  readonly trigger: string | undefined;
  /** The JSON body as sent, with the fields `useChat` adds through its `body` option. */
  readonly body: Readonly<Record<string, unknown>>;
  readonly request: Request;
  /** Aborted when the browser goes away: pass it to the client call so the agent request stops too. */
  readonly signal: AbortSignal;
}

export interface AgentChatRouteOptions<Message extends UIMessage = UIMessage> extends UIMessageStreamOptions {
  /**
   * The agent's ADK events for this chat request, e.g.
   * `async ({ messages, chatId, signal }) => client.async_stream_query({ user_id, session_id: await chatSessionId(user_id, chatId), message: lastUserText(messages) }, { signal })`.
   * A `ChatRequestError`, thrown here or when its events are first read, is answered 400; anything
   * else it throws ends the stream with an `error` chunk: `The agent stream failed` (the real error to the
   * server's log) unless `onError` says otherwise.
   */
  readonly events: (chat: AgentChatRequest<Message>) => AsyncIterable<unknown> | Promise<AsyncIterable<unknown>>;
  /** The largest request body read, in bytes (default 1 MiB): a longer one is answered 413. */
  readonly maxBodyBytes?: number;
}

const problem = (status: number, message: string, headers?: Record<string, string>) =>
  Response.json({ error: { code: status, message } }, { status, ...(headers === undefined ? {} : { headers }) });

/** A `(Request) => Promise<Response>` handler for `useChat`'s requests (`export const POST = agentChatRoute({...})` in Next.js). */
export function agentChatRoute<Message extends UIMessage = UIMessage>(options: AgentChatRouteOptions<Message>): (request: Request) => Promise<Response> {
  const { events, maxBodyBytes = 1024 * 1024, ...streamOptions } = options;
  return async (request) => {
    if (request.method !== 'POST') return problem(405, `The chat route answers POST, not ${request.method}`, { allow: 'POST' });
    const text = await boundedText(request, maxBodyBytes);
    if (text === undefined) return problem(413, `The request body is longer than ${maxBodyBytes} bytes`);
    const body = chatBody(text);
    if (typeof body === 'string') return problem(400, body);
    const chat: AgentChatRequest<Message> = {
      chatId: typeof body.id === 'string' ? body.id : undefined,
      messages: body.messages as Message[],
      trigger: typeof body.trigger === 'string' ? body.trigger : undefined,
      body,
      request,
      signal: request.signal,
    };
    const source = await started(() => events(chat));
    if (source instanceof ChatRequestError) return problem(400, source.message);
    return uiMessageStreamResponse(source, streamOptions);
  };
}

/**
 * The events with their first one already read, so that a `ChatRequestError` thrown only when they
 * are read (an `async function*` that checks the chat first) is still answered 400 rather than
 * after a 200. The response starts with the agent's first event, which comes as its turn starts.
 */
async function started(events: () => AsyncIterable<unknown> | Promise<AsyncIterable<unknown>>): Promise<AsyncIterable<unknown> | ChatRequestError> {
  let iterator: AsyncIterator<unknown>;
  let first: IteratorResult<unknown>;
  try {
    iterator = (await events())[Symbol.asyncIterator]();
    first = await iterator.next();
  } catch (error) {
    return error instanceof ChatRequestError ? error : failing(error);
  }
  return replay(first, iterator);
}

/** `first`, then the rest of `iterator`; stopping early (the browser left) returns the iterator, which cancels the agent request. */
async function* replay(first: IteratorResult<unknown>, iterator: AsyncIterator<unknown>): AsyncGenerator<unknown> {
  let finished = first.done === true;
  try {
    if (finished) return;
    yield first.value;
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) break;
      yield next.value;
    }
    finished = true;
  } catch (error) {
    finished = true; // an iterator that threw is done
    throw error;
  } finally {
    if (!finished) await iterator.return?.();
  }
}

/** A stream that throws at once: how an error of `events` reaches the browser as the stream's `error` chunk. */
// biome-ignore lint/correctness/useYield: a generator on purpose, so the error comes out of the stream, not the call
async function* failing(error: unknown): AsyncGenerator<never> {
  throw error;
}
