// The floor of a public-API hop written on node:http: a reverse proxy that reads the body, posts
// it to the container's unary route on a keep-alive agent and sends the answer back, with no
// checks at all. bench/dev-overhead.mjs measures it beside `agentgen dev`, so the cost of the hop
// itself (two more HTTP exchanges per call) is told apart from what the emulator adds to it.
//
//   node bench/peers/node-proxy.mjs http://127.0.0.1:PORT     (sends its own port over IPC)
import { Agent, createServer, request } from 'node:http';

const target = new URL(process.argv[2] ?? '');
const agent = new Agent({ keepAlive: true });
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const headers = { 'content-type': 'application/json', 'content-length': body.length };
    const upstream = request({ hostname: target.hostname, port: target.port, path: '/api/reasoning_engine', method: 'POST', agent, headers }, (answer) => {
      const parts = [];
      answer.on('data', (chunk) => parts.push(chunk));
      answer.on('end', () => {
        const out = Buffer.concat(parts);
        res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json', 'content-length': out.length }).end(out);
      });
    });
    upstream.on('error', () => res.writeHead(502).end());
    upstream.end(body);
  });
});
server.listen(0, '127.0.0.1', () => process.send?.(server.address().port));
process.on('message', (message) => {
  if (message === 'cpu') process.send?.(process.cpuUsage());
  if (message === 'stop') server.close(() => process.exit(0));
});
