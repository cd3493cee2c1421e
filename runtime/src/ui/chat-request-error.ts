/** A chat request the route cannot turn into the agent's input: `agentChatRoute` answers it 400 with its message. */
export class ChatRequestError extends Error {
  override readonly name = 'ChatRequestError';
}
