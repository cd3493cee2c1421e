/**
 * Fuzz target (bundled and forked by spawn-target.ts): the generated server of the standard
 * surface (generated/server.ts) with the total in-memory agent, on 127.0.0.1, in its own process.
 */
import { createAgentServer } from '../../generated/server.js';
import { memoryAgent } from './memory-agent.js';
import { reportReady } from './target-ipc.js';

// No request log: the test holds stderr to be empty (a crash's stack would land there).
const server = createAgentServer(memoryAgent(), { host: '127.0.0.1', port: 0, logger: false });
const { port } = await server.listen();
reportReady(port);
