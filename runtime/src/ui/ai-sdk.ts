/**
 * `@agentgen/runtime/ui/ai-sdk`: an agent's turn for the Vercel AI SDK (`useChat`, assistant-ui's
 * AI SDK adapter). `ai` (6.x or 7.x) is an optional peer dependency, of which only types are imported:
 * the client entry (`@agentgen/runtime/client`) never loads this module, so a client bundle
 * without it does not grow. No `node:` imports: it runs in browsers too.
 */

export { errorMessage } from './adk-turn.js';
export { type AgentChatRequest, type AgentChatRouteOptions, agentChatRoute, ChatRequestError, lastUserText } from './chat-route.js';
export { chatSessionId, chatSessionIdPrefix } from './chat-session-id.js';
export { handoffEvents } from './handoff-events.js';
export { toUIMessageStream, type UIMessageStreamOptions, uiMessageStreamHeaders, uiMessageStreamResponse } from './ui-message-stream.js';
