/**
 * An AgentApp container for the SIGTERM test (shutdown.test.ts bundles and runs it): the generated
 * server of the agent-app surface over a real ADK `LlmAgent` whose model never finishes a turn on
 * its own (stalling-llm.ts, logging to `$MODEL_LOG`); sessions where `$AGENT_SESSION_SERVICE_URI`
 * says; the grace from `$AGENT_SHUTDOWN_GRACE_MS`; signals handled as a container's main should,
 * with `shutdownOnSignals`. Prints `listening <port>`.
 */
import { AgentApp } from '@agentgen/agent-app';
import { shutdownOnSignals } from '@agentgen/runtime/server';
import { createAgentServer } from '../../generated/server.js';
import { stallingAgent } from './stalling-llm.js';

const log = process.env['MODEL_LOG'];
if (log === undefined) throw new Error('MODEL_LOG must name the file the model logs to');
const app = new AgentApp({ agent: stallingAgent(log) });
// The session database is opened before listening, as a container's main does.
await app.ready();
const server = createAgentServer(app, { host: '127.0.0.1', port: 0, logger: false });
const { port } = await server.listen();
shutdownOnSignals(server);
console.log(`listening ${port}`);
