/**
 * Starts the chat page's server: the agent is found through the environment, as the weather
 * example's `agentgen dev` prints it (AGENT_BASE_URL, AGENT_RESOURCE, AGENT_TOKEN); the page is
 * served on http://127.0.0.1:$PORT (default 3000).
 */
import { join } from 'node:path';
import { createAgentClient } from '../../weather-agent/generated/client.js';
import { createChatServer } from './server.js';

const env = process.env;
const client = createAgentClient({
  baseUrl: env['AGENT_BASE_URL'] || 'http://127.0.0.1:8600',
  resourceName: env['AGENT_RESOURCE'] || 'projects/local/locations/local/reasoningEngines/1',
  // `agentgen dev` takes any token; on the platform, a function returning a fresh access token.
  token: env['AGENT_TOKEN'] || 'local',
});
const port = Number(env['PORT'] || 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`chat-ui: PORT must be a port number, not ${env['PORT']}`);
  process.exit(1);
}
// The bundled server runs from dist/, next to the page script.
const server = createChatServer({ client, assetsDir: import.meta.dirname.endsWith('dist') ? import.meta.dirname : join(import.meta.dirname, '..', 'dist') });
server.on('error', (error) => {
  console.error(`chat-ui: cannot listen on 127.0.0.1:${port}: ${error.message}`);
  process.exit(1);
});
server.listen(port, '127.0.0.1', () => console.log(`chat-ui on http://127.0.0.1:${port}/ (agent ${env['AGENT_BASE_URL'] || 'http://127.0.0.1:8600'})`));
