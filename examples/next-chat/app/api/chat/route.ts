// POST /api/chat: what useChat's default transport sends (the chat's id and its messages), answered
// with the agent's turn as the AI SDK's UI message stream. The browser talks only to this route:
// the agent's address and token stay on the server.
import { agentChatRoute, chatSessionId, lastUserText } from '@agentgen/runtime/ui/ai-sdk';
import { createAgentClient } from '../../../generated/client';

// `agentgen dev` in front of the weather agent by default; for a deployed engine, the regional base
// URL, its resource name and a function returning a fresh access token.
const client = createAgentClient({
  baseUrl: process.env.AGENT_BASE_URL ?? 'http://127.0.0.1:8600',
  resourceName: process.env.AGENT_RESOURCE ?? 'projects/local/locations/local/reasoningEngines/1',
  token: process.env.AGENT_TOKEN ?? 'local',
});

export const POST = agentChatRoute({
  events: async ({ messages, chatId, signal }) => {
    const user_id = 'web-user'; // in an app: the signed-in user
    // useChat's ids (`wJlgnPAoAXw8VGiI`) are not valid session ids: one derived from it, the same on every turn.
    const session_id = await chatSessionId(user_id, chatId);
    return client.async_stream_query({ user_id, session_id, message: lastUserText(messages) }, { signal });
  },
});
