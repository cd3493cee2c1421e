// The generated container against what a team would run instead, each in its own process, doing
// the same work on the same schemas (parse the envelope, decode a string body once more, validate
// the input, answer the same result or stream the same events):
//   generated     the standard surface's server.ts (agent-app/dist), validateResults off as in production
//   generated, logs on  the same with the default log format on the platform (AGENT_LOG_FORMAT=json:
//                 Cloud Logging's structured line per call on stdout), stdout to a file, as a user
//                 runs it; the other servers write no log
//   hand-written  a minimal node:http server checking the same fields by hand (the floor of Node)
//   fastify       fastify 5, the same input schemas as JSON Schema (ajv), response serialisation
//   fastapi       FastAPI on uvicorn (Debian's python3-fastapi, python3-uvicorn; httptools and
//                 uvloop when installed), pydantic models of the same inputs: the reference
//                 platform's own Python stack
// Workloads: unary (small input), unary with a 64 KB input, streams of 20 and of 1,000 events, at
// 1 and at 50 keep-alive connections, from the raw load client (bench/load-client.mjs, its own
// process, pinned to core 0 with the servers on core 1). Per workload and server: req/s or
// events/s, the server's own CPU time per request or event (the OS's figure: it holds on a
// noisy machine), and its minor page faults per request (from /proc, shown against the
// hand-written server: they tell memory from code in a CPU difference). A round runs every server once, in an order rotated from round to round; the
// first round warms up and is dropped; medians of the rest. A ratio to a peer is the median of
// the per-round ratios (each server against the peer measured in the same round, seconds apart),
// so that a slow spell of the machine moves both sides of a ratio rather than one. A peer that
// cannot start (FastAPI's Debian packages missing) is reported as missing, never faked.
//
//   node bench/server-peers.mjs [--rounds 12] [--seconds 0.25] [--only "unary, 1 connection"]
//     (npm run bench -- server; --only keeps the rows whose label starts with it, for a quick look)
import { execFileSync, fork, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { forkTarget } from './fork-target.mjs';
import { pin } from './pin.mjs';
import { median, recordResult, spread } from './result.mjs';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '12' }, seconds: { type: 'string', default: '0.25' }, only: { type: 'string' } },
});
/**
 * Many short rounds: this virtual machine's speed changes from one second to the next by more
 * than the servers differ (the quiet run of 2026-11-29 at 08:53: the logs-off server 5,691–8,524
 * req/s over 3 rounds of 1 s on one connection; at 09:56, with 3 rounds of 1 s, rows of streams
 * and of 64 KB bodies moved by a tenth and more between the logs-off and logs-on servers, whose
 * work there differs by one log line per call). Twelve rounds of a quarter second, each ratio
 * taken between windows well under a second apart, give a median that a slow spell in one or two
 * of them does not move. The warm-up round has a full second (the JIT's).
 */
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const warmUpSeconds = 1;

const repo = fileURLToPath(new URL('..', import.meta.url));
const quiet = { AGENT_LOG_FORMAT: 'off' }; // the servers measure their own work, not a log line each

const envelope = (classMethod, input) => JSON.stringify({ class_method: classMethod, input });
const workloads = [
  { name: 'unary', path: '/api/reasoning_engine', body: envelope('async_create_session', { user_id: 'bench-user', state: { lang: 'en' } }), unit: 'req/s' },
  {
    name: 'unary 64 KB',
    path: '/api/reasoning_engine',
    body: envelope('async_create_session', { user_id: 'bench-user', state: { blob: 'x'.repeat(65536) } }),
    unit: 'req/s',
  },
  {
    name: 'stream 20',
    path: '/api/stream_reasoning_engine',
    body: envelope('async_stream_query', { message: 'hello', user_id: 'bench-user', run_config: { events: 20 } }),
    unit: 'events/s',
  },
  {
    name: 'stream 1000',
    path: '/api/stream_reasoning_engine',
    body: envelope('async_stream_query', { message: 'hello', user_id: 'bench-user', run_config: { events: 1000 } }),
    unit: 'events/s',
  },
];
const connections = [1, 50];

/** A Node target (bench/fork-target.mjs), its CPU time as µs. */
async function nodeTarget(name, script, args = [], setup = { env: quiet }) {
  const target = await forkTarget(script, args, setup);
  return { ...target, name, cpuMicros: async () => ((usage) => usage.user + usage.system)(await target.cpu()) };
}

// The logs-on server's stdout: a file, as `node server.js > log` or a platform's log collector reads it.
const logDir = mkdtempSync(join(tmpdir(), 'agentgen-bench-logs-'));
const logFile = join(logDir, 'stdout.log');
const logFd = openSync(logFile, 'w');
const logsOn = { env: { AGENT_LOG_FORMAT: 'json', GOOGLE_CLOUD_PROJECT: 'bench-project' }, stdout: logFd };

/** The logs-on server wrote a whole JSON line per call: the rows measure what they say. */
function checkLogFile(minimum) {
  const lines = readFileSync(logFile, 'utf8').split('\n');
  if (lines.pop() !== '') throw new Error(`${logFile}: the last log line is not whole`);
  for (const line of lines) JSON.parse(line);
  if (lines.length < minimum) throw new Error(`${logFile}: ${lines.length} log lines for at least ${minimum} calls`);
  return lines.length;
}

const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The FastAPI target, or why it is missing. CPU from /proc/<pid>/stat (utime + stime). */
async function fastapiTarget() {
  const child = spawn('/usr/bin/python3', [join(repo, 'bench/peers/fastapi_server.py')], { stdio: ['ignore', 'pipe', 'pipe'] });
  process.once('exit', () => child.kill());
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  const port = await new Promise((resolve) => {
    let out = '';
    const timer = setTimeout(() => resolve(undefined), 15_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /PORT (\d+)/.exec(out);
      if (match) (clearTimeout(timer), resolve(Number(match[1])));
    });
    child.once('exit', () => (clearTimeout(timer), resolve(undefined)));
    child.once('error', () => (clearTimeout(timer), resolve(undefined)));
  });
  if (port === undefined) {
    child.kill();
    const why = /No module named '(\w+)'/.exec(err)?.[1];
    return {
      missing:
        why === undefined
          ? `did not start: ${err.trim().split('\n').at(-1) ?? 'no output'}`
          : `python3 has no ${why} (apt-get install python3-fastapi python3-uvicorn)`,
    };
  }
  const loop = (() => {
    try {
      execFileSync('/usr/bin/python3', ['-c', 'import uvloop, httptools'], { stdio: 'ignore' });
      return 'uvloop + httptools';
    } catch {
      return 'asyncio + h11';
    }
  })();
  return {
    name: 'fastapi',
    note: loop,
    pid: child.pid,
    url: `http://127.0.0.1:${port}`,
    cpuMicros: async () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return ((Number(fields[11]) + Number(fields[12])) / clockTicks) * 1e6;
    },
    stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))),
  };
}

const load = fork(join(repo, 'bench/load-client.mjs'));
pin(load.pid, 0);
const runLoad = (job) => new Promise((resolve) => (load.once('message', resolve), load.send(job)));

/**
 * The page faults a process has taken (minor ones: a page of its memory touched for the first time,
 * or again after the C allocator gave it back to the OS), from /proc/<pid>/stat; undefined where
 * there is no /proc. Their kernel time is part of the CPU figure; they say where a difference in
 * it comes from memory rather than code.
 */
function minorFaults(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[7]);
  } catch {
    return undefined;
  }
}

/** One window of one workload against one server: its rate, its CPU µs and page faults per request or event. */
async function window(target, workload, concurrency, seconds) {
  const before = await target.cpuMicros();
  const faultsBefore = minorFaults(target.pid);
  const started = performance.now();
  const result = await runLoad({ client: 'raw', url: target.url, path: workload.path, body: workload.body, concurrency, seconds });
  const elapsed = (performance.now() - started) / 1000;
  const cpu = (await target.cpuMicros()) - before;
  const faults = faultsBefore === undefined ? undefined : minorFaults(target.pid) - faultsBefore;
  if (result.errors > 0) throw new Error(`${target.name}, ${workload.name}: ${result.errors} failed requests`);
  const rate = workload.unit === 'req/s' ? result.requests : result.events;
  return {
    rate,
    calls: Math.floor(result.requests * elapsed),
    cpuPer: cpu / (rate * elapsed),
    faultsPer: faults === undefined ? undefined : faults / (result.requests * elapsed),
  };
}

const targets = [
  await nodeTarget('generated', './server-targets.mjs', ['generated']),
  await nodeTarget('generated, logs on', './server-targets.mjs', ['generated'], logsOn),
  await nodeTarget('hand-written', './server-targets.mjs', ['hand-written']),
  await nodeTarget('fastify', './peers/fastify-server.mjs'),
];
const fastapi = await fastapiTarget();
const missing = {};
if ('missing' in fastapi) missing.fastapi = fastapi.missing;
else targets.push(fastapi);
for (const target of targets) pin(target.pid, 1);

const rows = [];
/** Calls the logs-on server answered in measured windows: each must have its line. */
let loggedCalls = 0;
try {
  console.log(
    `server peers: ${targets.map((t) => (t.note ? `${t.name} (${t.note})` : t.name)).join(', ')}${missing.fastapi ? `; fastapi missing: ${missing.fastapi}` : ''}; ` +
      `${rounds} rounds x ${seconds} s (+1 warm-up of ${warmUpSeconds} s), node ${process.version}`,
  );
  for (const workload of workloads) {
    for (const concurrency of connections) {
      const label = `${workload.name}, ${concurrency} connection${concurrency === 1 ? '' : 's'}`;
      if (values.only !== undefined && !label.startsWith(values.only)) continue;
      const samples = new Map(targets.map((t) => [t.name, { rate: [], cpuPer: [], faultsPer: [] }]));
      for (let round = 0; round <= rounds; round++) {
        const shift = round % targets.length;
        for (const target of [...targets.slice(shift), ...targets.slice(0, shift)]) {
          const got = await window(target, workload, concurrency, round === 0 ? warmUpSeconds : seconds);
          if (target.name === 'generated, logs on') loggedCalls += got.calls;
          if (round === 0) continue;
          samples.get(target.name).rate.push(got.rate);
          samples.get(target.name).cpuPer.push(got.cpuPer);
          if (got.faultsPer !== undefined) samples.get(target.name).faultsPer.push(got.faultsPer);
        }
      }
      const of = (name, key) => median(samples.get(name)[key]);
      console.log(`\n${label}`);
      for (const target of targets) {
        const s = samples.get(target.name);
        console.log(
          `  ${target.name.padEnd(18)} ${of(target.name, 'rate').toFixed(0).padStart(8)} ${workload.unit.padEnd(8)} [${Math.min(...s.rate).toFixed(0)}–${Math.max(...s.rate).toFixed(0)}]` +
            `   server CPU ${of(target.name, 'cpuPer').toFixed(1).padStart(7)} µs per ${workload.unit === 'req/s' ? 'request' : 'event'}` +
            (s.faultsPer.length === 0 ? '' : `, ${of(target.name, 'faultsPer').toFixed(1)} page faults per request`),
        );
        if (target.name.startsWith('generated')) continue;
        rows.push(...peerRows(label, workload, 'generated', target.name, samples));
        if (target.name === 'hand-written') rows.push(...peerRows(label, workload, 'generated, logs on', target.name, samples));
      }
    }
  }
} finally {
  load.kill();
  await Promise.all(targets.map((t) => t.stop()));
  closeSync(logFd);
}
// Most windows are cut mid-call: the file holds at least nine in ten of the calls counted.
const logLines = checkLogFile(Math.floor(loggedCalls * 0.9));
rmSync(logDir, { recursive: true, force: true });
console.log(`\nlogs on: ${logLines} whole JSON lines on stdout (a file) for about ${loggedCalls} calls`);

/** A generated server (`name`: logs off or on) against one peer on one workload: throughput and CPU ratios, with the issue's targets. */
function peerRows(label, workload, name, peer, samples) {
  const generated = samples.get(name);
  const other = samples.get(peer);
  // Per round: the two servers' windows of one round, in a rotated order, are seconds apart.
  const paired = (key) => median(generated[key].map((value, round) => value / other[key][round]));
  const rateRatio = paired('rate');
  const cpuRatio = paired('cpuPer');
  const unary = workload.unit === 'req/s';
  // Issue 48: against the hand-written server, targets that guard against a regression rather than
  // chase the last microseconds (profiles put what is left in the contract's checks; see
  // docs/performance.md): throughput at least 0.9 of its own and CPU at most 1.15 of its own per
  // request or event, logs off and on alike. Against fastify, throughput at least fastify's (issue
  // 34); against FastAPI, issue 13's.
  const rateTarget = { 'hand-written': 0.9, fastify: 1, fastapi: unary ? 2.5 : 5 }[peer];
  // With logs on, a call alone on its connection makes a write(2) of its own to stdout (its line
  // is written in the step that ends its response, so no later call can share the write): the
  // logs-on CPU rows of one connection miss this target by that write, and docs/performance.md
  // says so rather than the target being dropped.
  const cpuTarget = peer === 'hand-written' ? 1.15 : undefined;
  // Against the hand-written server (same node:http, same allocator): where CPU goes to memory.
  const faults =
    peer === 'hand-written' && generated.faultsPer.length > 0 && other.faultsPer.length > 0
      ? [
          {
            metric: `${label}: ${name} vs ${peer}, page faults per request`,
            unit: 'faults',
            ...spread(generated.faultsPer),
            baseline: peer,
            // No ratio: most rows take a fault in a few hundred requests, where a ratio says nothing.
            baselineMedian: median(other.faultsPer),
          },
        ]
      : [];
  return [
    {
      metric: `${label}: ${name} vs ${peer}, ${workload.unit}`,
      unit: workload.unit,
      ...spread(generated.rate),
      baseline: peer,
      baselineMedian: median(other.rate),
      ratio: rateRatio,
      ...(rateTarget === undefined ? {} : { target: `>= ${rateTarget}`, met: rateRatio >= rateTarget }),
    },
    {
      metric: `${label}: ${name} vs ${peer}, server CPU per ${unary ? 'request' : 'event'}`,
      unit: 'µs',
      ...spread(generated.cpuPer),
      baseline: peer,
      baselineMedian: median(other.cpuPer),
      ratio: cpuRatio,
      ...(cpuTarget === undefined ? {} : { target: `<= ${cpuTarget}`, met: cpuRatio <= cpuTarget }),
    },
    ...faults,
  ];
}

recordResult('server', rows, missing.fastapi ? { 'fastapi missing': missing.fastapi } : {});
