// The container bench/console-overhead.mjs puts `agentgen dev` in front of: the bench's generated
// container, except that async_stream_query streams one event every 200 ms until its caller goes
// away (a turn being watched in the console).
import { createAgentServer } from '../agent-app/dist/generated/server.js';
import { sessionFor } from './peers/workload.mjs';

const none = () => null;
const empty = async function* () {};
async function* slow(_input, context) {
  for (let i = 0; !context.signal.aborted; i++) {
    yield { id: `e${i}`, author: 'agent', content: { role: 'model', parts: [{ text: `tick ${i} ` }] }, partial: true };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
const handlers = {
  create_session: sessionFor,
  get_session: sessionFor,
  list_sessions: () => ({ sessions: [] }),
  delete_session: none,
  async_create_session: sessionFor,
  async_get_session: sessionFor,
  async_list_sessions: () => ({ sessions: [] }),
  async_delete_session: none,
  async_add_session_to_memory: none,
  async_search_memory: () => ({ memories: [] }),
  stream_query: empty,
  async_stream_query: slow,
  streaming_agent_run_with_events: empty,
  async_save_artifact: () => 0,
  async_load_artifact: none,
  async_list_artifact_keys: () => [],
  async_delete_artifact: none,
  async_list_versions: () => [],
  async_list_artifact_versions: () => [],
  async_get_artifact_version: none,
};
const server = createAgentServer(handlers, { host: '127.0.0.1', port: 0 }).server;
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
process.on('message', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
