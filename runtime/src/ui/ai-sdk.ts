/**
 * `@agentgen/runtime/ui/ai-sdk`: an agent's turn for the Vercel AI SDK (`useChat`, assistant-ui's
 * AI SDK adapter). `ai` (6.x or 7.x) is an optional peer dependency, of which only types are imported:
 * the client entry (`@agentgen/runtime/client`) never loads this module, so a client bundle
 * without it does not grow. No `node:` imports: it runs in browsers too.
 */
export { toUIMessageStream, uiMessageStreamResponse, uiMessageStreamHeaders, type UIMessageStreamOptions } from './ui-message-stream.js';
export { agentChatRoute, ChatRequestError, lastUserText, type AgentChatRequest, type AgentChatRouteOptions } from './chat-route.js';
export { chatSessionId, chatSessionIdPrefix } from './chat-session-id.js';
export { handoffEvents } from './handoff-events.js';
export { errorMessage } from './adk-turn.js';
