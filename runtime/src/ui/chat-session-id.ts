/**
 * A chat's id as an engine session id. `useChat` makes its own ids (16 letters and digits of both
 * cases, sometimes starting with a digit, e.g. `wJlgnPAoAXw8VGiI`), and the engine's Sessions take
 * a caller-chosen id only of up to 63 characters of `[a-z0-9-]`, starting with a letter and ending
 * with a letter or a digit (CreateSessionRequest.session_id): passed as it is, a chat id is refused.
 *
 * The session id is derived, not stored: every replica and every turn of the chat derives the same
 * one, so the first turn creates the session (AgentApp creates a `session_id` it does not find) and
 * every later turn finds it, with no mapping to keep. The user is part of the key because Vertex
 * AI's ids are unique per engine while sessions belong to a user: one chat id sent for two users
 * gives two sessions. (AgentApp's Gemini Enterprise session names are mapped the same way.)
 *
 * Web Crypto, not `node:crypto`: the chat route runs in edge runtimes and Deno too.
 */
import { ChatRequestError } from './chat-request-error.js';

/** The prefix of every derived id: it starts the id with a letter, and says where it came from. */
export const chatSessionIdPrefix = 'chat-';

/**
 * `chat-` and 48 hex digits of the SHA-256 of the user and the chat id (192 bits): a valid session
 * id for every session service, the same for the same pair on every call. An absent or empty chat
 * id is the request's mistake (a `ChatRequestError`, answered 400 by `agentChatRoute`).
 */
export async function chatSessionId(userId: string, chatId: string | undefined): Promise<string> {
  if (typeof chatId !== 'string' || chatId === '') throw new ChatRequestError('The request body has no chat `id` (useChat sends one)');
  const bytes = new TextEncoder().encode(JSON.stringify([userId, chatId]));
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const byte of digest.subarray(0, 24)) hex += byte.toString(16).padStart(2, '0');
  return `${chatSessionIdPrefix}${hex}`;
}
