// What users run, under whichever node runs this script (test/compat/node-versions.test.ts runs it
// under Node 22, 24 and 26): `agentgen generate` and `check` as processes; then the weather
// example (its generated server, AgentApp and the offline model, built by the test into DIST)
// started by `agentgen dev --command`, and the example's generated client against `agentgen dev`:
// a unary call, a turn streamed as NDJSON and as SSE; then a disconnect end to end: the client
// abandons an endless stream of the example's generated server (in this process, behind a second
// `agentgen dev --container`), and the handler must be stopped. Plain JavaScript with no test
// framework, so that it runs on every node as is. It prints one JSON line, {node, generate, check,
// checkStale, methods, unary, ndjson, sse, disconnect, ...}; every child is bounded by a timeout
// and stopped before it exits, and a watchdog stops everything after 60 s (the test allows 90).
//
// Usage: node driver.mjs DIST WORK   (DIST: the example built with dist/src/main.js; WORK: a scratch folder)
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'cli/bin/agentgen.js');
const spec = join(root, 'examples/weather-agent/agentgen.yaml');
const [dist, work] = process.argv.slice(2);
if (dist === undefined || work === undefined) throw new Error('usage: node driver.mjs DIST WORK');
const resource = 'projects/compat/locations/local/reasoningEngines/1';
/** Every `agentgen dev` started, so that the watchdog can stop them (each stops its container). */
const devs = [];
setTimeout(() => {
  console.error('driver: still running after 60 s; stopping agentgen dev and exiting');
  void Promise.all(devs.map((dev) => stopDev(dev))).finally(() => process.exit(1));
}, 60_000).unref();
const question = 'Weather in Paris?';

/** `agentgen <args>` to completion under this node: its exit code and output. */
function agentgen(args) {
  const run = spawnSync(process.execPath, [cli, ...args], { cwd: work, encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' });
  if (run.error !== undefined) throw new Error(`agentgen ${args[0]}: ${run.error.message}`);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** `agentgen dev` with `target` (`--command CMD` or `--container URL`); `url` resolves with its public base URL. */
function startDev(target) {
  // Its own process group, so that a failure here can stop dev and the container under it at once.
  const dev = spawn(process.execPath, [cli, 'dev', ...target, '--port', '0', '--resource', resource, '--spec', spec], {
    cwd: work,
    env: { ...process.env, AGENT_MODEL: 'offline' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`agentgen dev did not start in 30 s:\n${output}`)), 30_000);
    const read = (chunk) => {
      output += chunk;
      const base = /POST (http:\/\/127\.0\.0\.1:\d+)\/v1\//.exec(output)?.[1];
      if (base !== undefined) {
        clearTimeout(timer);
        resolve(base);
      }
    };
    dev.stdout.setEncoding('utf8').on('data', read);
    dev.stderr.setEncoding('utf8').on('data', read);
    dev.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`agentgen dev exited ${code} before serving:\n${output}`));
    });
  });
  const exited = new Promise((resolve) => dev.once('exit', (code, signal) => resolve(code ?? signal)));
  const started = { dev, url, exited, output: () => output };
  devs.push(started);
  return started;
}

/** Stops `agentgen dev` as Ctrl-C would (it stops a --command container itself); its exit code. */
async function stopDev({ dev, exited }) {
  if (dev.exitCode !== null || dev.signalCode !== null) return exited;
  dev.kill('SIGTERM');
  const timer = setTimeout(() => process.kill(-dev.pid, 'SIGKILL'), 5_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

/**
 * The example's generated server in this process, with an endless `async_stream_query` (one event
 * every 20 ms) and every other operation refused: `stopped` resolves when the server stops the
 * handler, as it must once the caller is gone.
 */
async function endlessStreamServer() {
  const { createAgentServer } = await import(pathToFileURL(join(dist, 'generated/server.js')).href);
  const manifest = JSON.parse(readFileSync(join(out, 'class-methods.json'), 'utf8')); // from step 1
  let handlerStopped;
  const stopped = new Promise((resolve) => (handlerStopped = resolve));
  const refuse = async () => {
    throw new Error('not used by the compatibility driver');
  };
  const handlers = Object.fromEntries(manifest.map((entry) => [entry.name, refuse]));
  // The example declares an A2A face, whose handler the server asks for; this server never serves it.
  handlers.a2aTurn = refuse;
  handlers.async_stream_query = async function* (_input, context) {
    try {
      for (let i = 0; !context.signal.aborted; i++) {
        yield { author: 'compat', invocation_id: 'compat', id: `e${i}`, timestamp: i, content: { role: 'model', parts: [{ text: `tick ${i}` }] } };
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      // Why it ends: the server's abort (the caller went away) or anything else.
      handlerStopped(context.signal.aborted ? `aborted: ${context.signal.reason?.message}` : 'ended without an abort');
    }
  };
  const server = createAgentServer(handlers, { host: '127.0.0.1', port: 0 });
  const { port } = await server.listen();
  return { server, url: `http://127.0.0.1:${port}`, stopped };
}

const within = (promise, ms, what) => Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve(`${what}: not within ${ms} ms`), ms).unref())]);

/** The events of one streamed turn, reduced to what the example promises (README). */
async function turn(client, userId, options) {
  const events = [];
  for await (const event of client.async_stream_query({ user_id: userId, message: question }, options)) events.push(event);
  const parts = events.flatMap((event) => event.content?.parts ?? []);
  return {
    events: events.length,
    call: parts.find((part) => part.function_call !== undefined)?.function_call,
    response: parts.find((part) => part.function_response !== undefined)?.function_response?.response,
    text: parts.map((part) => part.text ?? '').join(''),
  };
}

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const result = { node: process.version };

// 1. The generator's two CI verbs, as processes under this node.
const out = join(work, 'generated');
result.generate = agentgen(['generate', '--spec', spec, '--out', out]).status;
result.check = agentgen(['check', '--spec', spec, '--out', out]).status;
appendFileSync(join(out, 'types.ts'), '// edited by hand\n');
const stale = agentgen(['check', '--spec', spec, '--out', out]);
result.checkStale = { status: stale.status, namesFile: stale.output.includes('types.ts') };

// 2. The example behind `agentgen dev`, called through its generated client.
const example = startDev(['--command', `${JSON.stringify(process.execPath)} ${JSON.stringify(join(dist, 'src/main.js'))}`]);
try {
  const baseUrl = await example.url;
  const { createAgentClient } = await import(pathToFileURL(join(dist, 'generated/client.js')).href);
  const ndjson = createAgentClient({ baseUrl, resourceName: resource, token: 'local' });
  const sse = createAgentClient({ baseUrl, resourceName: resource, token: 'local', sse: true });
  result.methods = (await ndjson.getResource()).spec?.classMethods?.length;
  const session = await ndjson.async_create_session({ user_id: 'u1' });
  result.unary = { userId: session.user_id, hasId: typeof session.id === 'string' && session.id.length > 0 };
  result.ndjson = await turn(ndjson, 'u1');
  result.sse = await turn(sse, 'u2');
} finally {
  result.devExit = await stopDev(example);
}
result.devStopped = /agentgen dev: stopped/.test(example.output());

// 3. A disconnect end to end: the client aborts an endless stream after its third event.
const endless = await endlessStreamServer();
const front = startDev(['--container', endless.url]);
try {
  const { createAgentClient } = await import(pathToFileURL(join(dist, 'generated/client.js')).href);
  const client = createAgentClient({ baseUrl: await front.url, resourceName: resource, token: 'local' });
  const controller = new AbortController();
  let received = 0;
  let ended = 'normally';
  try {
    for await (const _event of client.async_stream_query({ user_id: 'u1', message: question }, { signal: controller.signal })) {
      if (++received === 3) controller.abort(new Error('compat: caller gone'));
    }
  } catch (error) {
    ended = error instanceof Error ? error.message : String(error);
  }
  result.disconnect = { received, ended, handler: await within(endless.stopped, 5_000, 'handler stopped') };
} finally {
  result.disconnectDevExit = await stopDev(front);
  await endless.server.close();
}
console.log(JSON.stringify(result));
