// A tiny hand-written container in plain node:http (no agentgen code), run as a child process:
// `node mini-container.mjs [breakage]`. Without a breakage it keeps every container rule, so the
// checker must pass it; each breakage breaks exactly one rule, and the checker must catch it.
// Prints `listening <port>` on stdout once bound to 127.0.0.1 on a free port.
import { createServer } from 'node:http';

const breakage = process.argv[2] ?? 'none';
const breakages = [
  'none',
  'no-double-decode',
  'dispatches-prototype',
  'stream-as-array',
  'wrong-media-type',
  'crashes-on-bad-json',
  'ignores-route',
  'strict-content-type',
  'redirects-root',
];
if (!breakages.includes(breakage)) {
  process.stderr.write(`unknown breakage ${breakage}; one of ${breakages.join(', ')}\n`);
  process.exit(2);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const handlers = {
  ping: () => 'pong',
  tick: async function* () {
    for (let i = 0; i < 5; i++) {
      await sleep(2);
      yield { i };
    }
  },
};
const declared = new Map([
  ['ping', 'unary'],
  ['tick', 'stream'],
]);
const routes = { '/api/reasoning_engine': 'unary', '/api/stream_reasoning_engine': 'stream' };
const routeOf = { unary: '/api/reasoning_engine', stream: '/api/stream_reasoning_engine' };

function fail(res, code, status, message) {
  const body = JSON.stringify({ error: { code, message, status } });
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(body);
}

function lookup(name) {
  if (breakage === 'dispatches-prototype') {
    // The classic mistake: a property lookup reaches Object.prototype.
    const found = handlers[name];
    return typeof found === 'function' ? { fn: found, kind: declared.get(name) ?? 'unary' } : undefined;
  }
  const kind = declared.get(name);
  return kind === undefined ? undefined : { fn: handlers[name], kind };
}

async function handle(req, res, text) {
  const kind = routes[req.url];
  let body;
  if (breakage === 'crashes-on-bad-json') {
    body = JSON.parse(text); // throws out of the request handler: the process dies
  } else {
    try {
      body = JSON.parse(text);
    } catch {
      return fail(res, 400, 'INVALID_ARGUMENT', 'malformed JSON');
    }
  }
  if (typeof body === 'string' && breakage !== 'no-double-decode') {
    try {
      body = JSON.parse(body);
    } catch {
      return fail(res, 400, 'INVALID_ARGUMENT', 'malformed JSON');
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail(res, 400, 'INVALID_ARGUMENT', 'body must be an object');
  }
  if (typeof body.class_method !== 'string') return fail(res, 400, 'INVALID_ARGUMENT', 'class_method missing');
  const op = lookup(body.class_method);
  if (op === undefined) return fail(res, 404, 'NOT_FOUND', `unknown method ${body.class_method}`);
  if (op.kind !== kind && breakage !== 'ignores-route') {
    return fail(res, 400, 'FAILED_PRECONDITION', `use ${routeOf[op.kind]}`);
  }
  const input = body.input ?? {};
  if (kind === 'unary') {
    let output;
    try {
      output = await op.fn.call(handlers, input);
    } catch (error) {
      return fail(res, 500, 'INTERNAL', String(error));
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ output: output ?? null }));
  }
  const type = breakage === 'wrong-media-type' ? 'application/x-ndjson' : 'application/json';
  res.writeHead(200, { 'content-type': type });
  res.flushHeaders();
  const produced = op.fn.call(handlers, input);
  if (produced === null || typeof produced !== 'object' || !(Symbol.asyncIterator in produced || Symbol.iterator in produced)) {
    res.end(`${JSON.stringify({ error: { code: 500, message: 'not a stream', status: 'INTERNAL' } })}\n`);
    return;
  }
  if (breakage === 'stream-as-array') {
    const all = [];
    for await (const event of produced) all.push(event);
    return res.end(JSON.stringify(all));
  }
  for await (const event of produced) {
    if (res.destroyed) break;
    res.write(`${JSON.stringify(event)}\n`);
  }
  res.end();
}

const server = createServer((req, res) => {
  // The runtime's liveness checks (google/adk-js PR #440); a redirect there gets a container killed.
  if (req.method === 'GET' && (req.url === '/' || req.url === '/health')) {
    if (breakage === 'redirects-root' && req.url === '/') {
      res.writeHead(302, { location: '/ui/' });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end('{"status":"ok"}');
  }
  if (!(req.url in routes)) return fail(res, 404, 'NOT_FOUND', `no route ${req.url}`);
  if (req.method !== 'POST') return fail(res, 405, 'UNIMPLEMENTED', 'use POST');
  // The mistake the real runtime punishes: it forwards `application/json,application/json`.
  if (breakage === 'strict-content-type' && req.headers['content-type'] !== 'application/json') {
    return fail(res, 415, 'INVALID_ARGUMENT', 'send application/json');
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    if (breakage === 'crashes-on-bad-json') {
      // Synchronous on purpose: the throw escapes as an uncaught exception.
      JSON.parse(text);
    }
    handle(req, res, text).catch((error) => {
      if (!res.headersSent) fail(res, 500, 'INTERNAL', String(error));
      else res.end();
    });
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
