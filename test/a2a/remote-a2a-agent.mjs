// ADK's own A2A client in a process of its own: a root agent whose only sub-agent is a
// RemoteA2AAgent for the card URL given (the weather example behind agentgen dev's passthrough).
// The root agent's model hands every turn to that sub-agent, so the answer comes from the remote
// agent. Prints each event of the turn as a JSON line {author, text}.

import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { BaseLlm, InMemoryRunner, LlmAgent, RemoteA2AAgent } from '@google/adk';

const cardUrl = process.argv[2];
/** The caller's Google token on every request, as on the platform. */
const authorized = (input, init = {}) => {
  const headers = new Headers(init.headers);
  headers.set('authorization', 'Bearer a2a-test-token');
  return fetch(input, { ...init, headers });
};

/** Transfers every turn to the sub-agent named `weather`. */
class TransferLlm extends BaseLlm {
  constructor() {
    super({ model: 'transfer' });
  }
  async *generateContentAsync() {
    yield { content: { role: 'model', parts: [{ functionCall: { id: 'transfer-1', name: 'transfer_to_agent', args: { agentName: 'weather' } } }] } };
  }
  async connect() {
    throw new Error('not live');
  }
}

const card = await (await authorized(cardUrl)).json();
const weather = new RemoteA2AAgent({
  name: 'weather',
  description: 'The weather agent, over A2A',
  agentCard: card,
  clientFactory: new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl: authorized })] }),
});
const root = new LlmAgent({ name: 'root', model: new TransferLlm(), instruction: 'Hand weather questions to the weather agent.', subAgents: [weather] });
const runner = new InMemoryRunner({ agent: root, appName: 'remote-test' });
const session = await runner.sessionService.createSession({ appName: 'remote-test', userId: 'u' });
for await (const event of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'Weather in Paris?' }] } })) {
  const text = (event.content?.parts ?? []).map((part) => part.text ?? '').join('');
  if (text !== '' && event.partial !== true) process.stdout.write(`${JSON.stringify({ author: event.author, text })}\n`);
  if (event.errorMessage) process.stderr.write(`error event: ${event.errorMessage}\n`);
}
