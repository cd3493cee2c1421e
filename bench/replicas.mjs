// Sessions in memory against sessions in PostgreSQL (issue 12): the example container (its real
// main, offline model) behind `agentgen dev`, driven through the generated client by concurrent
// conversations of recap turns (each answer quotes the whole history, so every turn reads the
// session and appends two events). Reported per setup: turn latency p50 and p99 (ms) under a
// light load, throughput (turns/s) under a heavy one, the median of --runs runs with their
// spread, and the ratio to in-memory.
//
//   npm run bench -- replicas   (or: node bench/replicas.mjs [--conversations 50] [--turns 5] [--runs 3] [--latency-conversations 4])
//
// Setups: in memory with one replica (in-memory sessions cannot be shared, so the only honest
// baseline is one instance), PostgreSQL with one replica (the store's cost alone), PostgreSQL with
// two replicas behind round robin (what scaling out looks like). PostgreSQL is a throwaway local
// cluster (fsync off) on the same machine, started by test/helpers/postgres.ts: the figures are
// the cost of the store's round trips and locks, not of a network or a disk.
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { median, recordResult, spread } from './result.mjs';
import { loadHarness } from './ts-harness.mjs';

const { values } = parseArgs({
  options: {
    conversations: { type: 'string', default: '50' },
    turns: { type: 'string', default: '5' },
    runs: { type: 'string', default: '3' },
    'latency-conversations': { type: 'string', default: '4' },
  },
});
const latencyConversations = Number(values['latency-conversations']);
const conversations = Number(values.conversations);
const turns = Number(values.turns);
const runs = Number(values.runs);

/** The test's own fleet, cluster and conversation driver (TypeScript), bundled once for this process. */
const loadReplicasHarness = () =>
  loadHarness('replicas', [
    "export { startPostgres } from './test/helpers/postgres.ts';",
    "export { startFleet } from './test/replicas/fleet.ts';",
    "export { runConversations } from './test/replicas/conversations.ts';",
  ]);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** One phase: `conversations` at once, `turns` each; every turn must succeed (see below). */
async function phase(harness, fleet, setup, label, conversations_, turns_) {
  const started = performance.now();
  const records = await harness.runConversations(fleet.client, { conversations: conversations_, turns: turns_, userPrefix: `bench-${setup}-${label}` });
  const seconds = (performance.now() - started) / 1000;
  // A failed turn is reported, never folded into the figures; more than 1% makes the run worthless.
  const failed = records.filter((record) => record.outcome !== 'ok');
  if (failed.length > records.length / 100) throw new Error(`${setup}: ${failed.length} turns failed, e.g. ${JSON.stringify(failed[0].error)}`);
  for (const record of failed) process.stdout.write(`  ${setup} ${label}: a turn failed: ${JSON.stringify(record.error)}\n`);
  const ok = records.filter((record) => record.outcome === 'ok');
  const ms = ok.map((record) => record.ms).sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p99: percentile(ms, 99), throughput: ok.length / seconds, failed: failed.length };
}

/**
 * Per run: latency with a light load (`latencyConversations` conversations at once, so a turn
 * rarely waits for another: its own cost), then throughput under `conversations` at once (where
 * latency is mostly queueing: conversations / throughput).
 */
async function measure(harness, setup, sessionUri, replicas) {
  const fleet = await harness.startFleet({ replicas, ...(sessionUri === undefined ? {} : { sessionUri }) });
  try {
    // Warm-up: the replicas' first turns load code and open connections.
    await harness.runConversations(fleet.client, { conversations: 10, turns: 2, userPrefix: `warm-${setup}` });
    const figures = [];
    for (let run = 0; run < runs; run++) {
      const light = await phase(harness, fleet, setup, `light-${run}`, latencyConversations, 10);
      const heavy = await phase(harness, fleet, setup, `heavy-${run}`, conversations, turns);
      figures.push({ p50: light.p50, p99: light.p99, throughput: heavy.throughput, loadedP50: heavy.p50, failed: light.failed + heavy.failed });
      const f = figures.at(-1);
      process.stdout.write(
        `  ${setup} run ${run + 1}: p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms; ${f.throughput.toFixed(0)} turns/s (p50 ${f.loadedP50.toFixed(0)} ms under load)\n`,
      );
    }
    return figures;
  } finally {
    await fleet.stop();
  }
}

const { harness, remove } = await loadReplicasHarness();
const pg = await harness.startPostgres('bench_replicas');
const results = {};
try {
  console.log(
    `replicas: latency from ${latencyConversations} concurrent conversations × 10 recap turns, throughput from ${conversations} × ${turns}; ` +
      `${runs} runs per setup; ${cpus().length} cores, load ${loadavg()[0].toFixed(2)}`,
  );
  results['in memory, 1 replica'] = await measure(harness, 'memory-1', undefined, 1);
  results['PostgreSQL, 1 replica'] = await measure(harness, 'pg-1', pg.uri, 1);
  results['PostgreSQL, 2 replicas'] = await measure(harness, 'pg-2', pg.uri, 2);
} finally {
  await pg.stop();
  remove();
}

const baseline = 'in memory, 1 replica';
const rows = [];
const table = [
  '| sessions | turn p50 (ms) | turn p99 (ms) | throughput (turns/s) | p50 ratio | p99 ratio | throughput ratio |',
  '|---|---|---|---|---|---|---|',
];
const fmt = (s, digits = 1) => `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
for (const [setup, figures] of Object.entries(results)) {
  const p50 = spread(figures.map((f) => f.p50));
  const p99 = spread(figures.map((f) => f.p99));
  const throughput = spread(figures.map((f) => f.throughput));
  const base = results[baseline];
  const p50Ratio = p50.median / median(base.map((f) => f.p50));
  const throughputRatio = throughput.median / median(base.map((f) => f.throughput));
  const p99Ratio = p99.median / median(base.map((f) => f.p99));
  table.push(
    `| ${setup} | ${fmt(p50)} | ${fmt(p99)} | ${fmt(throughput, 0)} | ${p50Ratio.toFixed(2)} | ${p99Ratio.toFixed(2)} | ${throughputRatio.toFixed(2)} |`,
  );
  const against = setup === baseline ? {} : { baseline };
  rows.push(
    {
      metric: `${setup}: turn latency p50`,
      unit: 'ms',
      ...p50,
      ...against,
      ...(setup === baseline ? {} : { baselineMedian: median(base.map((f) => f.p50)), ratio: p50Ratio }),
    },
    {
      metric: `${setup}: turn latency p99`,
      unit: 'ms',
      ...p99,
      ...against,
      ...(setup === baseline ? {} : { baselineMedian: median(base.map((f) => f.p99)), ratio: p99Ratio }),
    },
    {
      metric: `${setup}: throughput`,
      unit: 'turns/s',
      ...throughput,
      ...against,
      ...(setup === baseline ? {} : { baselineMedian: median(base.map((f) => f.throughput)), ratio: throughputRatio }),
    },
  );
}
console.log(table.join('\n'));
const failedTurns = Object.fromEntries(Object.entries(results).map(([setup, figures]) => [setup, figures.reduce((sum, f) => sum + f.failed, 0)]));
if (Object.values(failedTurns).some((n) => n > 0)) console.log(`failed turns (left out of the figures): ${JSON.stringify(failedTurns)}`);
recordResult('replicas', rows, { conversations, turns, runs, latencyConversations, failedTurns, loadAverage: loadavg()[0] });
