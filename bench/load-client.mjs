// Load generator for bench/server-throughput.mjs and bench/dev-overhead.mjs, run as a forked child
// process so it has its own core. Each job: `concurrency` keep-alive connections, one request in
// flight on each, for `seconds` (with `headers` besides the content type, if given); answers
// completed req/s and events/s (newline-terminated lines in 200 bodies).
//
// Two clients: `agent` (node:http with a keep-alive http.Agent) and `raw` (keep-alive HTTP/1.1
// over node:net with pre-encoded requests and a minimal response parser). The agent client costs
// more CPU per request than the servers under test, so on a 2-core machine it saturates first;
// the raw client is cheap enough that the server becomes the bottleneck.
import { Agent, request } from 'node:http';
import { connect } from 'node:net';

function agentLoad(job) {
  const agent = new Agent({ keepAlive: true, maxSockets: job.concurrency });
  const url = new URL(job.path, job.url);
  const deadline = performance.now() + job.seconds * 1000;
  const totals = { requests: 0, events: 0, errors: 0 };
  const one = () =>
    new Promise((resolve) => {
      const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...job.headers } }, (res) => {
        let lines = 0;
        res.on('data', (chunk) => {
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        });
        res.on('end', () => {
          if (res.statusCode === 200) {
            totals.requests++;
            totals.events += lines;
          } else totals.errors++;
          resolve();
        });
      });
      req.on('error', () => {
        totals.errors++;
        resolve();
      });
      req.end(job.body);
    });
  const worker = async () => {
    while (performance.now() < deadline) await one();
  };
  return Promise.all(Array.from({ length: job.concurrency }, worker)).then(() => {
    agent.destroy();
    return totals;
  });
}

/** One keep-alive connection: send, parse one response (Content-Length or chunked), repeat. */
function rawConnection(job, deadline, totals) {
  const url = new URL(job.url);
  const body = Buffer.from(job.body);
  const head = Buffer.from(
    `POST ${job.path} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
      Object.entries(job.headers ?? {})
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      `Content-Length: ${body.length}\r\n\r\n`,
  );
  const requestBytes = Buffer.concat([head, body]);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    socket.setNoDelay(true);
    let buffer = Buffer.alloc(0);
    const send = () => {
      if (performance.now() >= deadline) {
        socket.end();
        return resolve();
      }
      socket.write(requestBytes);
    };
    socket.on('connect', send);
    socket.on('error', () => {
      totals.errors++;
      resolve();
    });
    socket.on('data', (chunk) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      const parsed = parseResponse(buffer);
      if (parsed === undefined) return;
      buffer = buffer.subarray(parsed.consumed);
      if (parsed.status === 200) {
        totals.requests++;
        totals.events += parsed.lines;
      } else totals.errors++;
      send();
    });
  });
}

/** A complete response at the start of `buf`, or undefined when more bytes are needed. */
function parseResponse(buf) {
  const headerEnd = buf.indexOf('\r\n\r\n');
  if (headerEnd === -1) return undefined;
  const headers = buf.toString('latin1', 0, headerEnd).toLowerCase();
  const status = Number(headers.slice(9, 12));
  let offset = headerEnd + 4;
  const lengthAt = headers.indexOf('\r\ncontent-length:');
  if (lengthAt !== -1) {
    const length = parseInt(headers.slice(lengthAt + 17), 10);
    if (buf.length < offset + length) return undefined;
    return { status, lines: countLines(buf, offset, offset + length), consumed: offset + length };
  }
  // Chunked: size line, data, CRLF; a zero-size chunk (and its CRLF) ends the body.
  let lines = 0;
  for (;;) {
    const lineEnd = buf.indexOf('\r\n', offset);
    if (lineEnd === -1) return undefined;
    const size = parseInt(buf.toString('latin1', offset, lineEnd), 16);
    const dataStart = lineEnd + 2;
    if (size === 0) {
      if (buf.length < dataStart + 2) return undefined;
      return { status, lines, consumed: dataStart + 2 };
    }
    if (buf.length < dataStart + size + 2) return undefined;
    lines += countLines(buf, dataStart, dataStart + size);
    offset = dataStart + size + 2;
  }
}

function countLines(buf, start, end) {
  let lines = 0;
  for (let i = buf.indexOf(10, start); i !== -1 && i < end; i = buf.indexOf(10, i + 1)) lines++;
  return lines;
}

async function rawLoad(job) {
  const deadline = performance.now() + job.seconds * 1000;
  const totals = { requests: 0, events: 0, errors: 0 };
  await Promise.all(Array.from({ length: job.concurrency }, () => rawConnection(job, deadline, totals)));
  return totals;
}

process.on('message', async (job) => {
  const started = performance.now();
  const totals = job.client === 'raw' ? await rawLoad(job) : await agentLoad(job);
  const elapsed = (performance.now() - started) / 1000;
  process.send({ requests: totals.requests / elapsed, events: totals.events / elapsed, errors: totals.errors });
});
