/**
 * The request body of `useChat`'s `DefaultChatTransport` (`{ id, messages, trigger, messageId, ...body }`),
 * read with a bound and checked before the agent sees any of it: a caller's mistake is a 400 that
 * names the field, never a 200 whose stream carries an error (which `useChat` shows as if the
 * agent had failed). Messages are checked as far as the route and `lastUserText` read them: a role,
 * and parts that are objects with a `type` (a text part's `text` a string); the rest of a part is
 * the app's to read.
 */
import type { UIMessage } from 'ai';
import { ChatRequestError } from './chat-request-error.js';

/** Reads at most `limit` bytes of the body; undefined when it is longer. */
export async function boundedText(request: Request, limit: number): Promise<string | undefined> {
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

/** What is wrong with the parts of message `index`, naming the first bad one; undefined when nothing is. */
function badPart(parts: readonly unknown[], index: number): string | undefined {
  for (let at = 0; at < parts.length; at++) {
    const part = parts[at];
    if (!isRecord(part) || typeof part.type !== 'string') return `messages[${index}].parts[${at}] is not a UI message part (an object with a string type)`;
    if (part.type === 'text' && typeof part.text !== 'string') return `messages[${index}].parts[${at}].text is not a string`;
  }
  return undefined;
}

/** Checks the body `DefaultChatTransport` sends; a string says what is wrong, naming the field. */
export function chatBody(text: string): Record<string, unknown> | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'The request body is not JSON';
  }
  if (!isRecord(body)) return 'The request body is not a JSON object';
  if (body.id !== undefined && typeof body.id !== 'string') return 'The request body has an `id` that is not a string';
  if (!Array.isArray(body.messages)) return 'The request body has no `messages` array';
  for (let index = 0; index < body.messages.length; index++) {
    const message: unknown = body.messages[index];
    if (!isRecord(message) || typeof message.role !== 'string' || !Array.isArray(message.parts)) {
      return `messages[${index}] is not a UI message (a role and an array of parts)`;
    }
    const bad = badPart(message.parts, index);
    if (bad !== undefined) return bad;
  }
  return body;
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
