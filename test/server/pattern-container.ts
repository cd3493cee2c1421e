/**
 * The keywords fixture's generated container, as a process of its own (test/server/patterns.test.ts
 * bundles and starts it): prints `listening <port>` once it accepts connections on loopback.
 */
import { type AgentHandlers, createAgentServer } from '../fixtures/keywords/expected/server.js';

const handlers: AgentHandlers = {
  check: (input) => ({ ...input }),
  async *walk(input) {
    yield { label: input.tree.label };
  },
  locate: (input) => ({ street: 'Main St 1', postcode: input.postcode }),
};

const server = createAgentServer(handlers, { host: '127.0.0.1', port: 0, logger: false });
const { port } = await server.listen();
process.stdout.write(`listening ${port}\n`);
