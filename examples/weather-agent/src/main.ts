/**
 * The container entry point: the generated server (contract routes, validation, streaming)
 * with AgentApp (the twenty operations of `agent-app@2` over ADK) as its handlers. It listens on
 * `$PORT` (default 8080) on 0.0.0.0, as the runtime requires.
 *
 * Where sessions, memory and artifacts live comes from the environment, so the same image runs
 * anywhere: the engine's Vertex AI services on the platform, else `AGENT_SESSION_SERVICE_URI`
 * (e.g. `postgresql://…`, shared by every replica), `AGENT_MEMORY_SERVICE_URI`,
 * `AGENT_ARTIFACT_SERVICE_URI`, else in memory. The database is opened before listening: a bad
 * URI or an unreachable database stops the container at start (exit 1) with a message saying so.
 *
 * SIGTERM (what the platform sends) and SIGINT: stop accepting, let calls in flight finish for
 * up to `AGENT_SHUTDOWN_GRACE_MS` (the runtime reads it; default 7000), then give up on the rest
 * (handlers' signals abort, streams end with the error line, unary calls get 503), exit 0.
 */
import { AgentApp } from '@agentgen/agent-app';
import { shutdownOnSignals } from '@agentgen/runtime/server';
import { createAgentServer } from '../generated/server.js';
import { createWeatherAgent } from './agent.js';

try {
  const app = new AgentApp({ agent: createWeatherAgent() });
  await app.ready();
  // No `logger` option: the runtime's own, chosen by AGENT_LOG_FORMAT (JSON lines for Cloud
  // Logging on the platform, text on a laptop).
  const server = createAgentServer(app);
  const { host, port } = await server.listen();
  shutdownOnSignals(server);
  console.log(`weather-agent listening on ${host}:${port}`);
} catch (error) {
  console.error(`weather-agent: cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
