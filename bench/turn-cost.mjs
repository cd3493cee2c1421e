// What one deployed conversation turn costs (issue 28 item 10): the latency of a turn and the
// session-service calls it makes, per session backend, against ADK's `Runner` driven by hand with
// in-memory sessions (the floor). A turn is `async_stream_query` on an existing session that
// already holds `--history` turns (default 4: the measured turn is the fifth, its session 16
// events long), consumed to the end: user message → model call → tool → model answer, the same
// three events every time (the scripted model of bench/weather-agent.mjs: no network, so the
// figures are AgentApp + ADK + the sessions, never a model).
//
//   npm run bench -- turn-cost   (or: node bench/turn-cost.mjs [--runs 5] [--turns 10] [--history 4] [--delay-ms 15])
//
// Setups, each a real service in the process:
// - ADK Runner by hand, InMemorySessionService: the floor.
// - AgentApp, in memory: `new AgentApp({ agent })`, InMemorySessionService.
// - AgentApp, PostgreSQL: `sessionService: 'postgresql://…'` (ADK's DatabaseSessionService) on a
//   throwaway local cluster (fsync off) from test/helpers/postgres.ts, as bench/replicas.mjs: the
//   cost of the store's round trips on loopback, not of a network or a disk.
// - AgentApp, dev's Sessions API: the app configured exactly as in a container that `agentgen dev
//   --command` starts (emulator/container-env.ts's environment: engine id, project, location,
//   `AGENTGEN_ENGINE_API_ENDPOINT`, `GCE_METADATA_HOST`), so it picks ADK's
//   `VertexAiSessionService` over `@google-cloud/vertexai`'s client, with google-auth-library
//   getting dev's token from dev's metadata server: the same code path as on the runtime, served
//   by `startEmulator`'s engine services (emulator/engine-services/). Measured twice:
//   - on loopback: dev's own cost, which the real service does not have;
//   - with a round trip added to every HTTP call: a delaying proxy between the app and dev holds
//     each request `--delay-ms` (default 15) before forwarding it and each answer as long before
//     returning it, 30 ms a call in all, standing for the network and the real service's own work
//     (a stand-in, not a measurement of Google's service: the calls' count times its real
//     latency is the real cost). A proxy rather than a delay inside the session service, because
//     it sees each HTTP exchange as the client makes it: `getSession` is two requests sent at once
//     (the session, its events), which overlap in the proxy as they would on the network, so the
//     added latency divided by one call's delay says how many round trips a turn waits for in
//     sequence. The metadata server (one token fetch, then cached) is dev's directly: on the
//     runtime it is on the host.
//
// Calls are counted by wrapping the service instance the app (or the runner) uses: its
// createSession, getSession, listSessions, deleteSession and appendEvent each count, then call
// through. HTTP requests are counted in the proxy, by route, with the round trips a turn waits for
// in sequence (a request sent while none is in flight); SQL statements at node-postgres' client.
// Only the measured turn is counted and timed; the session and its history are built before it.
// Per run, each setup's p50 over `--turns` turns; reported: the median of the runs' p50s, their
// min–max, and the ratio to the floor's median p50 in the same run.

import { Agent, createServer, request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { InMemorySessionService, Runner } from '@google/adk';
import nodePostgres from 'pg';
import { median, recordResult, spread } from './result.mjs';
import { loadHarness } from './ts-harness.mjs';
import { eventsPerTurn, weatherAgent } from './weather-agent.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    turns: { type: 'string', default: '10' },
    history: { type: 'string', default: '4' },
    'delay-ms': { type: 'string', default: '15' },
  },
});
const runs = Number(values.runs);
const turns = Number(values.turns);
const history = Number(values.history);
const delayMs = Number(values['delay-ms']);
const appName = 'bench';
const userId = 'u';
const message = 'weather?';

const sessionMethods = ['createSession', 'getSession', 'listSessions', 'deleteSession', 'appendEvent'];

/** Counts each call of the service's methods on the instance itself, so every caller (app, runner) is seen. */
function countCalls(service) {
  let counts = {};
  for (const method of sessionMethods) {
    const original = service[method].bind(service);
    service[method] = (...args) => {
      counts[method] = (counts[method] ?? 0) + 1;
      return original(...args);
    };
  }
  return {
    /** The counts since the last take, and a fresh start. */
    take() {
      const taken = counts;
      counts = {};
      return taken;
    },
  };
}

/**
 * Statements sent to PostgreSQL (each a round trip, BEGIN and COMMIT included), counted at
 * node-postgres' `Client.prototype.query`, which MikroORM's driver calls for every statement; only
 * the PostgreSQL setup sends any.
 */
function countStatements() {
  const original = nodePostgres.Client.prototype.query;
  let counts = {};
  nodePostgres.Client.prototype.query = function query(...args) {
    // By the statement's first word (select, insert, begin…): where a turn's round trips go.
    const text = typeof args[0] === 'string' ? args[0] : (args[0]?.text ?? '');
    const kind = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? 'other';
    counts[kind] = (counts[kind] ?? 0) + 1;
    return original.apply(this, args);
  };
  return {
    take() {
      const taken = counts;
      counts = {};
      return taken;
    },
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function readAll(stream) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', reject);
  });
}

const sequentialKey = 'round trips in sequence';

/** The engine route of a request, ids left out: `GET session.events`, `POST session:appendEvent`. */
function routeLabel(method, path) {
  const tail = path.replace(/^.*\/reasoningEngines\/[^/]+/, '').replace(/\?.*$/, '');
  return `${method} ${tail
    .replace(/^\/sessions\/[^/:]+/, '/session')
    .replace(/\/operations\/[^/]+$/, '/operation')
    .slice(1)}`;
}

/**
 * A delaying HTTP proxy in front of dev (see the header): holds each whole request `delay` ms
 * before forwarding it, each whole answer as long before returning it; counts requests by route
 * (and the round trips in sequence, under `sequentialKey`) while `counting`. Keep-alive to dev, so the proxy adds no connection set-up of its own.
 */
async function startDelayingProxy(target) {
  const agent = new Agent({ keepAlive: true });
  const state = { delay: 0, counting: false, counts: {}, inFlight: 0 };
  const server = createServer(async (req, res) => {
    if (state.counting) {
      const label = routeLabel(req.method, req.url);
      state.counts[label] = (state.counts[label] ?? 0) + 1;
      // A request that starts while none is in flight is a round trip the turn waits for in
      // sequence; one sent beside another (getSession's two) overlaps it.
      if (state.inFlight === 0) state.counts[sequentialKey] = (state.counts[sequentialKey] ?? 0) + 1;
    }
    state.inFlight++;
    res.once('close', () => state.inFlight--);
    const body = await readAll(req);
    await sleep(state.delay);
    const upstream = request(new URL(req.url, target), { method: req.method, headers: { ...req.headers, host: target.host }, agent }, async (answer) => {
      const payload = await readAll(answer);
      await sleep(state.delay);
      res.writeHead(answer.statusCode ?? 502, answer.headers).end(payload);
    });
    upstream.once('error', (error) => res.writeHead(502).end(String(error)));
    upstream.end(body);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    state,
    takeCounts() {
      const taken = state.counts;
      state.counts = {};
      return taken;
    },
    close: () => {
      agent.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function consume(stream) {
  let events = 0;
  for await (const _event of stream) events++;
  if (events !== eventsPerTurn) throw new Error(`expected ${eventsPerTurn} events in a turn, got ${events}`);
}

/** ADK's Runner with in-memory sessions, driven by hand: the floor. */
function adkSetup() {
  const sessionService = new InMemorySessionService();
  const calls = countCalls(sessionService);
  const runner = new Runner({ appName, agent: weatherAgent(), sessionService });
  const turn = (sessionId) => consume(runner.runAsync({ userId, sessionId, newMessage: { role: 'user', parts: [{ text: message }] } }));
  return {
    calls,
    async newSession() {
      const { id } = await sessionService.createSession({ appName, userId });
      for (let i = 0; i < history; i++) await turn(id);
      return id;
    },
    turn,
  };
}

/** An AgentApp with the given options, its session service counted; `around` brackets the history's building (the proxy's delay off). */
async function appSetup(AgentApp, options, around = { before() {}, after() {} }) {
  const app = new AgentApp({ agent: weatherAgent(), appName, warn: () => undefined, ...options });
  await app.ready();
  const calls = countCalls(app.services.sessionService);
  const turn = (sessionId) => app.async_stream_query({ user_id: userId, session_id: sessionId, message }).then(consume);
  return {
    calls,
    async newSession() {
      around.before();
      try {
        const { id } = await app.async_create_session({ user_id: userId });
        for (let i = 0; i < history; i++) await turn(id);
        return id;
      } finally {
        around.after();
      }
    },
    turn,
    // ADK's database service has no close of its own; its connection pool would keep the process alive.
    close: () => app.services.sessionService.orm?.close(true),
  };
}

const { harness, remove } = await loadHarness('turn-cost', [
  "export { startPostgres } from './test/helpers/postgres.ts';",
  "export { startEmulator } from './emulator/index.ts';",
  "export { containerEnvironment } from './emulator/container-env.ts';",
  "export { AgentApp } from './agent-app/src/index.ts';",
]);
const { AgentApp } = harness;
const pg = await harness.startPostgres('bench_turn_cost');
// Only the engine services are used: no query goes to a container, so dev's container URL is a
// port nothing listens on. Dev's log lines go nowhere (printing them is `agentgen dev`'s, not the service's).
const dev = await harness.startEmulator({ container: 'http://127.0.0.1:9', manifest: [], port: 0, logger: () => undefined });
const proxy = await startDelayingProxy(new URL(dev.url));
const devEnv = harness.containerEnvironment(dev.resource, 'engine', new URL(dev.url).host);
// google-auth-library reads the metadata host from the process's environment, not the app's.
process.env.GCE_METADATA_HOST = devEnv.GCE_METADATA_HOST;
const postgres = 'AgentApp, PostgreSQL';
const statements = countStatements();
const delayed = `dev's Sessions API +${2 * delayMs} ms a call`;
const floor = 'ADK Runner by hand, in memory';
const setups = {};
try {
  setups[floor] = adkSetup();
  setups['AgentApp, in memory'] = await appSetup(AgentApp, { env: {} });
  setups[postgres] = await appSetup(AgentApp, { env: {}, sessionService: pg.uri });
  setups["AgentApp, dev's Sessions API (loopback)"] = await appSetup(AgentApp, { env: devEnv });
  setups[`AgentApp, ${delayed}`] = await appSetup(
    AgentApp,
    { env: { ...devEnv, AGENTGEN_ENGINE_API_ENDPOINT: proxy.url } },
    { before: () => (proxy.state.delay = 0), after: () => (proxy.state.delay = delayMs) },
  );
  proxy.state.delay = delayMs;

  console.log(
    `turn-cost: the turn after ${history} turns of history, ${turns} turns per setup and run, ${runs} runs (+1 warm-up), ` +
      `dev's calls +${delayMs} ms each way in the delayed setup; ${cpus().length} cores, load ${loadavg()[0].toFixed(2)}`,
  );
  const perRun = Object.fromEntries(Object.keys(setups).map((name) => [name, []]));
  const callCounts = Object.fromEntries(Object.keys(setups).map((name) => [name, []]));
  const httpCounts = [];
  const sqlCounts = [];
  for (let run = -1; run < runs; run++) {
    for (const [name, setup] of Object.entries(setups)) {
      const ms = [];
      for (let i = 0; i < turns; i++) {
        const id = await setup.newSession();
        setup.calls.take();
        statements.take();
        proxy.takeCounts();
        proxy.state.counting = true;
        const started = performance.now();
        await setup.turn(id);
        ms.push(performance.now() - started);
        proxy.state.counting = false;
        if (run < 0) continue; // warm-up: code loaded, connections opened, nothing kept
        callCounts[name].push(setup.calls.take());
        if (name.endsWith(delayed)) httpCounts.push(proxy.takeCounts());
        if (name === postgres) sqlCounts.push(statements.take());
      }
      if (run >= 0) perRun[name].push(median(ms));
    }
    if (run >= 0) {
      process.stdout.write(
        `  run ${run + 1}: ${Object.entries(perRun)
          .map(([name, p50s]) => `${name} ${p50s.at(-1).toFixed(2)}`)
          .join('; ')} (ms p50)\n`,
      );
    }
  }

  /** Per method (or route): the count per turn when every turn made the same, else its min–max. */
  const perTurn = (samples) => {
    const keys = [...new Set(samples.flatMap((s) => Object.keys(s)))].sort();
    return Object.fromEntries(
      keys.map((key) => {
        const xs = samples.map((s) => s[key] ?? 0);
        const { min, max } = spread(xs);
        return [key, min === max ? min : `${min}–${max}`];
      }),
    );
  };
  const total = (samples) => spread(samples.map((s) => Object.values(s).reduce((a, b) => a + b, 0)));
  const floorP50 = median(perRun[floor]);
  const rows = [];
  const table = ['| sessions | turn p50 (ms) [min–max over runs] | ratio to the floor | session-service calls per turn |', '|---|---|---|---|'];
  const notes = { runs, turns, history, delayMsEachWay: delayMs, callsPerTurn: {} };
  for (const [name, p50s] of Object.entries(perRun)) {
    const p50 = spread(p50s);
    const calls = perTurn(callCounts[name]);
    notes.callsPerTurn[name] = calls;
    const callsText = Object.entries(calls)
      .map(([method, n]) => `${method} ${n}`)
      .join(', ');
    table.push(`| ${name} | ${p50.median.toFixed(2)} [${p50.min.toFixed(2)}–${p50.max.toFixed(2)}] | ${(p50.median / floorP50).toFixed(2)} | ${callsText} |`);
    rows.push(
      {
        metric: `${name}: turn p50`,
        unit: 'ms',
        ...p50,
        ...(name === floor ? {} : { baseline: floor, baselineMedian: floorP50, ratio: p50.median / floorP50 }),
      },
      { metric: `${name}: session-service calls per turn`, unit: 'calls', ...total(callCounts[name]) },
    );
  }
  const routes = httpCounts.map(({ [sequentialKey]: _, ...byRoute }) => byRoute);
  const http = perTurn(routes);
  const roundTrips = spread(httpCounts.map((counts) => counts[sequentialKey]));
  // Per run: what the added delay cost the turn, in calls' worth of delay.
  const loopback = perRun["AgentApp, dev's Sessions API (loopback)"];
  // A check on the count above: the latency the delay added, in calls' worth of delay (above the
  // count by the proxy's own hop and its timers' lateness on a busy machine).
  const sequential = spread(perRun[`AgentApp, ${delayed}`].map((p50, run) => (p50 - loopback[run]) / (2 * delayMs)));
  notes.httpRequestsPerTurn = http;
  notes.addedLatencyInRoundTrips = +sequential.median.toFixed(2);
  rows.push(
    { metric: "dev's Sessions API: HTTP requests per turn", unit: 'requests', ...total(routes) },
    { metric: "dev's Sessions API: round trips waited for in sequence per turn", unit: 'round trips', ...roundTrips },
  );
  const sql = total(sqlCounts);
  notes.sqlStatementsPerTurn = perTurn(sqlCounts);
  rows.push({ metric: 'PostgreSQL: SQL statements per turn', unit: 'statements', ...sql });
  console.log(table.join('\n'));
  console.log(
    `SQL statements per turn to PostgreSQL: ${sql.median} (${Object.entries(notes.sqlStatementsPerTurn)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ')})`,
  );
  console.log(
    `HTTP requests per turn to the Sessions API: ${Object.entries(http)
      .map(([route, n]) => `${route} ${n}`)
      .join(', ')}`,
  );
  console.log(
    `round trips a turn waits for in sequence: ${roundTrips.median} counted at the proxy; ` +
      `the added latency ÷ ${2 * delayMs} ms: ${sequential.median.toFixed(2)} [${sequential.min.toFixed(2)}–${sequential.max.toFixed(2)}]`,
  );
  recordResult('turn-cost', rows, { ...notes, loadAverage: loadavg()[0] });
} finally {
  await Promise.all(Object.values(setups).map((setup) => setup.close?.()));
  await proxy.close();
  await dev.close();
  await pg.stop();
  remove();
}
