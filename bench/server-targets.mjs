// The servers bench/server-throughput.mjs compares, each run as its own child process:
//   node bench/server-targets.mjs generated|generated-validating|hand-written
// Listens on 127.0.0.1 on a free port and sends it over IPC; answers 'cpu' with its
// process.cpuUsage(), and 'stop' by closing. All do the same work: parse the JSON body (decoding a
// string body once more), check the method and the input fields, answer the same result, or
// stream the same events as NDJSON. `generated` runs as in production (validateResults off);
// `generated-validating` also checks each result and event against the declared output.
import { createServer } from 'node:http';
import { sessionFor, turn } from './peers/workload.mjs';

// Hand-written: the same fields the generated validators check, by hand; one write per stream
// here, since all events of this workload are produced in one tick.
function isOptionalString(value) {
  return value === undefined || value === null || typeof value === 'string';
}
function isOptionalObject(value) {
  return value === undefined || value === null || (typeof value === 'object' && !Array.isArray(value));
}

function handWritten() {
  return createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      const reply = (status, text) => {
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      };
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (typeof body === 'string') body = JSON.parse(body);
      } catch {
        return reply(400, '{"error":"bad json"}');
      }
      const input = body?.input ?? {};
      if (req.url === '/api/reasoning_engine' && body.class_method === 'async_create_session') {
        if (typeof input.user_id !== 'string' || !isOptionalString(input.session_id) || !isOptionalObject(input.state)) {
          return reply(400, '{"error":"bad input"}');
        }
        return reply(200, `{"output":${JSON.stringify(sessionFor(input))}}`);
      }
      if (req.url === '/api/stream_reasoning_engine' && body.class_method === 'async_stream_query') {
        const okMessage = typeof input.message === 'string' || (typeof input.message === 'object' && input.message !== null);
        if (!okMessage || typeof input.user_id !== 'string' || !isOptionalString(input.session_id)) {
          return reply(400, '{"error":"bad input"}');
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        let pending = '';
        for await (const event of turn(input)) pending += `${JSON.stringify(event)}\n`;
        return res.end(pending);
      }
      return reply(404, '{"error":"unknown"}');
    });
  });
}

// Generated: the standard surface's server.ts, as @agentgen/agent-app compiles it into its dist/
// (agent-app@2), with the same handlers for the two loaded operations; the other eighteen answer
// but are not loaded.
async function generated(validateResults) {
  const { createAgentServer } = await import('../agent-app/dist/generated/server.js');
  const none = () => null;
  const empty = async function* () {};
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
    async_stream_query: turn,
    streaming_agent_run_with_events: empty,
    async_save_artifact: () => 0,
    async_load_artifact: none,
    async_list_artifact_keys: () => [],
    async_delete_artifact: none,
    async_list_versions: () => [],
    async_list_artifact_versions: () => [],
    async_get_artifact_version: none,
  };
  return createAgentServer(handlers, { host: '127.0.0.1', port: 0, validateResults }).server;
}

const which = process.argv[2];
if (which !== 'generated' && which !== 'generated-validating' && which !== 'hand-written') {
  process.stderr.write('usage: node bench/server-targets.mjs generated|generated-validating|hand-written\n');
  process.exit(2);
}
const server = which === 'hand-written' ? handWritten() : await generated(which === 'generated-validating');
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
process.on('message', (message) => {
  if (message === 'cpu') {
    process.send(process.cpuUsage());
    return;
  }
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
