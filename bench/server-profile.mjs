// A CPU profile of one benchmarked server under load: where its time per request or event goes.
// Starts bench/server-targets.mjs (or a peer) with `--cpu-prof`, loads it with the raw client of
// bench/load-client.mjs (pinned as in the server bench: server on core 1, load on core 0), stops it
// so that V8 writes the profile, and prints the functions with the most self time.
//
//   node bench/server-profile.mjs [--target generated|hand-written|generated-validating]
//     [--workload unary|unary64|stream20|stream1000] [--connections 50] [--seconds 5] [--top 30]
//     [--dir /tmp/agentgen-profiles] [--logs]
// --logs: the default log format on the platform (AGENT_LOG_FORMAT=json), stdout to a file in
// --dir, as the server bench's "logs on" rows run it; without it, no log line, as the other rows.
import { fork } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { forkTarget } from './fork-target.mjs';
import { pin } from './pin.mjs';

const { values } = parseArgs({
  options: {
    target: { type: 'string', default: 'generated' },
    workload: { type: 'string', default: 'unary' },
    connections: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '5' },
    top: { type: 'string', default: '30' },
    dir: { type: 'string', default: '/tmp/agentgen-profiles' },
    logs: { type: 'boolean', default: false },
  },
});
const targets = ['generated', 'generated-validating', 'hand-written'];
if (!targets.includes(values.target)) throw new Error(`--target must be one of ${targets.join(', ')}`);

const envelope = (classMethod, input) => JSON.stringify({ class_method: classMethod, input });
const stream = (events) => ({
  path: '/api/stream_reasoning_engine',
  body: envelope('async_stream_query', { message: 'hello', user_id: 'bench-user', run_config: { events } }),
});
const workloads = {
  unary: { path: '/api/reasoning_engine', body: envelope('async_create_session', { user_id: 'bench-user', state: { lang: 'en' } }) },
  unary64: { path: '/api/reasoning_engine', body: envelope('async_create_session', { user_id: 'bench-user', state: { blob: 'x'.repeat(65536) } }) },
  stream20: stream(20),
  stream1000: stream(1000),
};
const workload = workloads[values.workload];
if (workload === undefined) throw new Error(`--workload must be one of ${Object.keys(workloads).join(', ')}`);
const connections = Number(values.connections);
const seconds = Number(values.seconds);
if (!Number.isInteger(connections) || connections < 1) throw new Error('--connections must be a positive integer');
if (!(seconds > 0)) throw new Error('--seconds must be a positive number');

mkdirSync(values.dir, { recursive: true });
const started = Date.now();
const logFd = values.logs ? openSync(join(values.dir, 'stdout.log'), 'w') : undefined;
const server = await forkTarget('./server-targets.mjs', [values.target], {
  env: values.logs ? { AGENT_LOG_FORMAT: 'json', GOOGLE_CLOUD_PROJECT: 'bench-project' } : { AGENT_LOG_FORMAT: 'off' },
  stdout: logFd,
  execArgv: ['--cpu-prof', '--cpu-prof-interval=200', `--cpu-prof-dir=${values.dir}`],
});
pin(server.pid, 1);
const load = fork(fileURLToPath(new URL('./load-client.mjs', import.meta.url)));
pin(load.pid, 0);
const run = (job) => new Promise((resolve) => (load.once('message', resolve), load.send(job)));
// A warm-up, so that the profile shows the optimised code rather than the start.
await run({ client: 'raw', url: server.url, ...workload, concurrency: connections, seconds: 1 });
const before = await server.cpu();
const result = await run({ client: 'raw', url: server.url, ...workload, concurrency: connections, seconds });
const after = await server.cpu();
load.kill();
await server.stop();
if (logFd !== undefined) closeSync(logFd);

const units = values.workload.startsWith('stream') ? result.events : result.requests;
const cpuPer = (after.user + after.system - before.user - before.system) / (units * seconds);
console.log(
  `${values.target}, ${values.workload}, ${connections} connections: ${units.toFixed(0)} ${values.workload.startsWith('stream') ? 'events' : 'req'}/s, ` +
    `server CPU ${cpuPer.toFixed(2)} µs each (${result.errors} errors)`,
);

// The newest profile in the folder written since this run started is the server's.
const file = readdirSync(values.dir)
  .filter((name) => name.endsWith('.cpuprofile'))
  .map((name) => join(values.dir, name))
  .filter((path) => statSync(path).mtimeMs >= started)
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (file === undefined) throw new Error(`no .cpuprofile written in ${values.dir}`);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const self = new Map();
const interval = new Map(profile.nodes.map((node) => [node.id, 0]));
for (let i = 0; i < profile.samples.length; i++) interval.set(profile.samples[i], interval.get(profile.samples[i]) + (profile.timeDeltas[i] ?? 0));
// Shares of the busy samples (idle left out), and what they come to per request or event.
let busy = 0;
for (const node of profile.nodes) {
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === '(idle)') continue;
  const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|dist|bench)\//, '$1/')}:${lineNumber + 1}`;
  const us = interval.get(node.id);
  busy += us;
  self.set(key, (self.get(key) ?? 0) + us);
}
console.log(
  `profile: ${file}\nself time: share of the busy samples, and µs per ${values.workload.startsWith('stream') ? 'event' : 'request'} at the CPU measured`,
);
for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
  console.log(`  ${((us / busy) * 100).toFixed(1).padStart(5)}%  ${((us / busy) * cpuPer).toFixed(2).padStart(6)} µs  ${key}`);
}
