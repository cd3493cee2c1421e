/**
 * The container entry point: the generated server (contract routes, validation, streaming)
 * with AgentApp (the twenty operations of `agent-app@2` over ADK) as its handlers. It listens on
 * `$PORT` (default 8080) on 0.0.0.0, as the runtime requires, and stops cleanly on SIGTERM.
 */
import { AgentApp } from '@agentgen/agent-app';
import { createAgentServer } from '../generated/server.js';
import { createWeatherAgent } from './agent.js';

// No `logger` option: the runtime's own, chosen by AGENT_LOG_FORMAT (JSON lines for Cloud Logging
// on the platform, text on a laptop).
const server = createAgentServer(new AgentApp({ agent: createWeatherAgent() }));
const { host, port } = await server.listen();
console.log(`weather-agent listening on ${host}:${port}`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
