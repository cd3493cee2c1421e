/**
 * The server route between `useChat` and an agent: `agentChatRoute` answers the request the AI
 * SDK's `DefaultChatTransport` sends (`POST` with JSON `{ id, messages, trigger, messageId, ...body }`)
 * with the agent's turn as a UI message stream. The app says how the chat becomes the agent's
 * input (usually the last user message's text and a session id), so the browser never holds the
 * agent's credentials: the route's generated client does. Web `Request`/`Response` only, so it
 * serves Next.js route handlers, Hono, Bun, Deno and Node's `fetch`-style adapters as it is.
 */
import type { UIMessage } from 'ai';
import { uiMessageStreamResponse, type UIMessageStreamOptions } from './ui-message-stream.js';

/** The chat request as `useChat` sent it. */
export interface AgentChatRequest<Message extends UIMessage = UIMessage> {
  /** The chat's id (`useChat`'s `id`): a natural session id. */
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
   * `({ messages, chatId, signal }) => client.async_stream_query({ user_id, session_id: chatId, message: lastUserText(messages) }, { signal })`.
   * Throw a `ChatRequestError` to answer 400; anything else it throws reaches the browser as the
   * stream's `error` chunk (through `onError`).
   */
  readonly events: (chat: AgentChatRequest<Message>) => AsyncIterable<unknown> | Promise<AsyncIterable<unknown>>;
  /** The largest request body read, in bytes (default 1 MiB): a longer one is answered 413. */
  readonly maxBodyBytes?: number;
}

/** A chat request the route cannot turn into the agent's input: answered 400 with its message. */
export class ChatRequestError extends Error {
  override readonly name = 'ChatRequestError';
}

/** The text of the last user message: what most agents take as their `message`. */
export function lastUserText(messages: readonly UIMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'user') continue;
    const text = (Array.isArray(message.parts) ? message.parts : [])
      .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
      .join('');
    if (text !== '') return text;
    break;
  }
  throw new ChatRequestError('The chat has no user message with text to send to the agent');
}

const problem = (status: number, message: string) => Response.json({ error: { code: status, message } }, { status });

/** Reads at most `limit` bytes of the body; undefined when it is longer. */
async function boundedText(request: Request, limit: number): Promise<string | undefined> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks the body `DefaultChatTransport` sends; a string says what is wrong. */
function chatBody(text: string): Record<string, unknown> | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'The request body is not JSON';
  }
  if (!isRecord(body)) return 'The request body is not a JSON object';
  if (!Array.isArray(body.messages)) return 'The request body has no `messages` array';
  const bad = body.messages.findIndex((message) => !isRecord(message) || typeof message.role !== 'string' || !Array.isArray(message.parts));
  if (bad >= 0) return `messages[${bad}] is not a UI message (a role and an array of parts)`;
  return body;
}

/** A `(Request) => Promise<Response>` handler for `useChat`'s requests (`export const POST = agentChatRoute({...})` in Next.js). */
export function agentChatRoute<Message extends UIMessage = UIMessage>(options: AgentChatRouteOptions<Message>): (request: Request) => Promise<Response> {
  const { events, maxBodyBytes = 1024 * 1024, ...streamOptions } = options;
  return async (request) => {
    if (request.method !== 'POST') return problem(405, `The chat route answers POST, not ${request.method}`);
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
    let source: AsyncIterable<unknown>;
    try {
      source = await events(chat);
    } catch (error) {
      if (error instanceof ChatRequestError) return problem(400, error.message);
      source = failing(error);
    }
    return uiMessageStreamResponse(source, streamOptions);
  };
}

/** A stream that throws at once: how an error of `events` reaches the browser as the stream's `error` chunk. */
async function* failing(error: unknown): AsyncGenerator<never> {
  throw error;
}
