// Throughput of the generated container (generated/server.ts, standard surface) against a minimal
// hand-written node:http server doing the same work, in one run.
//
//   npm run bench:server            (builds dist/ first)
//   BENCH_ROUNDS=20 BENCH_SECONDS=1 BENCH_CONCURRENCY=16 BENCH_CLIENTS=raw node bench/server-throughput.mjs
//
// Both servers run in this process; the load comes from a child process (bench/load-client.mjs:
// keep-alive connections, raw sockets and then a node:http keep-alive Agent), so server and
// client each have a core of their own. A round is a pair of short windows, one per server, in
// alternating order, so both see the same machine (other processes make single long runs
// unreliable); the first round warms up and is dropped. Reported per workload: median req/s
// (unary) or events/s (stream) of each server and their ratio, the median of the per-round
// ratios, and the server CPU time per request (or event) and its ratio: the cost of the work
// itself, least sensitive to what else runs on the machine.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const rounds = Number(process.env.BENCH_ROUNDS ?? 10);
const seconds = Number(process.env.BENCH_SECONDS ?? 0.5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const eventsPerStream = Number(process.env.BENCH_EVENTS ?? 20);
// `raw` makes the server the bottleneck; `agent` is the node:http client most callers use.
const clients = (process.env.BENCH_CLIENTS ?? 'raw,agent').split(',');

// ---------------------------------------------------------------------------------------------
// The work both servers do: the same handler results and the same events.

function sessionFor(input) {
  return { id: 's1', app_name: 'bench', user_id: input.user_id, state: input.state ?? {}, events: [], last_update_time: 1 };
}

async function* turn(input) {
  for (let i = 0; i < eventsPerStream; i++) {
    yield {
      id: `e${i}`,
      invocation_id: 'i1',
      author: 'agent',
      timestamp: 1700000000 + i,
      content: { role: 'model', parts: [{ text: `token ${i} for ${input.user_id}` }] },
    };
  }
}

const unaryBody = JSON.stringify({ class_method: 'async_create_session', input: { user_id: 'bench-user', state: { lang: 'en' } } });
const streamBody = JSON.stringify({ class_method: 'async_stream_query', input: { message: 'hello', user_id: 'bench-user' } });

// ---------------------------------------------------------------------------------------------
// Hand-written baseline: parse the JSON body (decoding a string body once more), check the method
// and the same fields the generated validators check, answer; stream lines, one write per tick.

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

// ---------------------------------------------------------------------------------------------
// The generated server with the same handlers (the other twelve answer but are not loaded).

async function generated() {
  const { createAgentServer } = await import('../dist/generated/server.js');
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
  };
  return createAgentServer(handlers, { host: '127.0.0.1', port: 0 });
}

// ---------------------------------------------------------------------------------------------
// Orchestration (parent).

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

function runLoad(client, job) {
  return new Promise((resolve) => {
    client.once('message', resolve);
    client.send(job);
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function measure(client, clientKind, url, kind) {
  const job = {
    client: clientKind,
    url,
    concurrency,
    seconds,
    path: kind === 'unary' ? '/api/reasoning_engine' : '/api/stream_reasoning_engine',
    body: kind === 'unary' ? unaryBody : streamBody,
  };
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await runLoad(client, job);
  const cpu = process.cpuUsage(cpuBefore);
  const elapsedMs = performance.now() - started;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  if (result.errors > 0) throw new Error(`${kind} against ${url}: ${result.errors} failed requests`);
  const value = kind === 'unary' ? result.requests : result.events;
  // CPU microseconds this process spent per request (unary) or per event (stream).
  const cpuPerUnit = (cpuMs * 1000) / (value * (elapsedMs / 1000));
  return { value, cpuShare: cpuMs / elapsedMs, cpuPerUnit };
}

/** Alternating rounds of one workload against both servers; medians and their ratio. */
async function compare(client, clientKind, kind, generatedUrl, baselineUrl) {
  const samples = { generated: [], handWritten: [], ratios: [], cpuGenerated: [], cpuHand: [], costGenerated: [], costHand: [] };
  for (let round = 0; round <= rounds; round++) {
    const order = round % 2 === 0 ? ['generated', 'handWritten'] : ['handWritten', 'generated'];
    const got = {};
    for (const who of order) got[who] = await measure(client, clientKind, who === 'generated' ? generatedUrl : baselineUrl, kind);
    if (round === 0) continue; // warm-up
    samples.generated.push(got.generated.value);
    samples.handWritten.push(got.handWritten.value);
    samples.ratios.push(got.generated.value / got.handWritten.value);
    samples.cpuGenerated.push(got.generated.cpuShare);
    samples.cpuHand.push(got.handWritten.cpuShare);
    samples.costGenerated.push(got.generated.cpuPerUnit);
    samples.costHand.push(got.handWritten.cpuPerUnit);
  }
  return {
    generated: median(samples.generated),
    handWritten: median(samples.handWritten),
    ratio: median(samples.generated) / median(samples.handWritten),
    pairedRatio: median(samples.ratios),
    cpu: [median(samples.cpuGenerated), median(samples.cpuHand)],
    cost: [median(samples.costGenerated), median(samples.costHand)],
  };
}

async function parentMain() {
  const baseline = handWritten();
  const baselineUrl = `http://127.0.0.1:${await listen(baseline)}`;
  const container = await generated();
  const { port } = await container.listen();
  const generatedUrl = `http://127.0.0.1:${port}`;
  const client = fork(fileURLToPath(new URL('./load-client.mjs', import.meta.url)), [], { stdio: 'inherit' });

  // Both answer the same: a cheap sanity check that the comparison is like for like.
  const check = async (url, path, body) => {
    const res = await fetch(new URL(path, url), { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    return `${res.status} ${await res.text()}`;
  };
  for (const [path, body] of [['/api/reasoning_engine', unaryBody], ['/api/stream_reasoning_engine', streamBody]]) {
    const [a, b] = [await check(generatedUrl, path, body), await check(baselineUrl, path, body)];
    if (a !== b) throw new Error(`the servers answer differently on ${path}:\n${a}\n${b}`);
  }

  console.log(
    `server throughput: ${rounds} rounds (+1 warm-up) x ${seconds}s, ${concurrency} keep-alive connections, ` +
      `${eventsPerStream} events per stream, node ${process.version}`,
  );
  let worst = Infinity;
  for (const clientKind of clients) {
    console.log(`\nload client: ${clientKind === 'raw' ? 'raw keep-alive sockets (node:net)' : 'node:http keep-alive http.Agent'}`);
    for (const kind of ['unary', 'stream']) {
      const row = await compare(client, clientKind, kind, generatedUrl, baselineUrl);
      const unit = kind === 'unary' ? 'req/s' : 'events/s';
      const per = kind === 'unary' ? 'req' : 'event';
      console.log(
        `  ${kind.padEnd(6)} generated ${row.generated.toFixed(0).padStart(7)} ${unit.padEnd(8)} ` +
          `hand-written ${row.handWritten.toFixed(0).padStart(7)} ${unit.padEnd(8)} ` +
          `ratio ${row.ratio.toFixed(3)} (median of round ratios ${row.pairedRatio.toFixed(3)})`,
      );
      console.log(
        `         server CPU per ${per}: generated ${row.cost[0].toFixed(2)} us, hand-written ${row.cost[1].toFixed(2)} us, ` +
          `ratio hand/generated ${(row.cost[1] / row.cost[0]).toFixed(3)}; server busy ${(row.cpu[0] * 100).toFixed(0)}% / ${(row.cpu[1] * 100).toFixed(0)}%`,
      );
      worst = Math.min(worst, row.ratio);
    }
  }
  console.log(
    worst >= 0.9
      ? '\nbar met: every throughput ratio >= 0.9'
      : `\nBAR MISSED: a throughput ratio is below 0.9 (${worst.toFixed(3)}); see the CPU-per-unit ratios and the machine load`,
  );
  console.log(`load average at the end: ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  client.kill();
  await container.close();
  baseline.closeAllConnections();
  await new Promise((resolve) => baseline.close(resolve));
}

await parentMain();
