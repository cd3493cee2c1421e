/**
 * Fuzz target of agent-app.fuzz.test.ts (bundled and forked by spawn-target.ts): AgentApp over a
 * real ADK `LlmAgent` on the deterministic scripted model (no network), with in-memory session,
 * memory and artifact services, behind the generated server of its surface
 * (agent-app/generated/server.ts), on 127.0.0.1, in its own process.
 */
// First: the CommonJS packages in the bundle need a `require` (see node-require.ts).
import './node-require.js';
import { AgentApp } from '@agentgen/agent-app';
import { createAgentServer } from '../../agent-app/generated/server.js';
import { makeAgent } from '../agent-app/fixtures.js';
import { reportReady } from './target-ipc.js';

// `env: {}`: in memory whatever this environment names; no warnings, no request log: the test holds stderr to be empty.
const app = new AgentApp({ agent: makeAgent().agent, env: {}, warn: () => {} });
await app.ready();
const server = createAgentServer(app, { host: '127.0.0.1', port: 0, logger: false });
const { port } = await server.listen();
reportReady(port);
