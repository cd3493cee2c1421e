// `npm run bench`: every benchmark of the repository, one after the other, each in its own
// process, then one table of their figures (median, min–max, the baseline measured in the same
// run and the ratio to it, the target where the issue sets one) with the machine it ran on: CPU,
// cores, load average before and after, whether the server benchmarks could pin processes to
// cores. The same goes to bench/results/<time>-<commit>.json, to compare commits with
// `npm run bench -- --compare bench/results/FILE.json`.
//
//   npm run bench                      every part (builds first)
//   npm run bench -- server generate   only those parts
//   npm run bench -- --compare FILE    and the change of each median against an earlier run
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = fileURLToPath(new URL('..', import.meta.url));

/** Each part: the script and its arguments (sized so that the whole run stays under 10 minutes here). */
const parts = {
  server: { script: 'server-peers.mjs', args: [] },
  client: { script: 'stream-parse.mjs', args: ['--rounds', '5'] },
  generate: { script: 'generate.mjs', args: ['--runs', '3'] },
  cli: { script: 'cli-startup.mjs', args: ['--rounds', '5'] },
  bundle: { script: 'client-bundle.mjs', args: [] },
  'agent-app': { script: 'agent-app.mjs', args: [] },
  cold: { script: 'cold-start.mjs', args: ['--rounds', '5'] },
  dev: { script: 'dev-overhead.mjs', args: ['--rounds', '5'] },
  console: { script: 'console-overhead.mjs', args: ['--rounds', '3'] },
  'slow-readers': { script: 'slow-readers.mjs', args: [] },
  typecheck: { script: 'typecheck-scale.mjs', args: ['1000', '--runs', '3'] },
  replicas: { script: 'replicas.mjs', args: ['--runs', '3'] },
  'turn-cost': { script: 'turn-cost.mjs', args: ['--runs', '5'] },
  deploy: { script: 'deploy-source.mjs', args: ['--rounds', '5'] },
};

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { compare: { type: 'string' }, 'no-build': { type: 'boolean', default: false } },
});
const unknown = positionals.filter((name) => !Object.hasOwn(parts, name));
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown part ${unknown.map((n) => JSON.stringify(n)).join(', ')}; the parts are ${Object.keys(parts).join(', ')}\n`);
  process.exit(2);
}
const chosen = positionals.length > 0 ? positionals : Object.keys(parts);
const previous = values.compare === undefined ? undefined : JSON.parse(readFileSync(values.compare, 'utf8'));

function git(...args) {
  try {
    return execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function canPin() {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return availableParallelism() >= 2;
  } catch {
    return false;
  }
}

/** Runs one part; its own report goes to our output as it comes; its rows come back through BENCH_RESULT_FILE. */
function runPart(name, work) {
  const { script, args, env = {} } = parts[name];
  const resultFile = join(work, `${name}.json`);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(repo, 'bench', script), ...args], {
      cwd: repo,
      env: { ...process.env, ...env, BENCH_RESULT_FILE: resultFile },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('exit', (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      let result;
      try {
        result = JSON.parse(readFileSync(resultFile, 'utf8'));
      } catch {
        result = undefined;
      }
      resolve({ name, code: code ?? signal, seconds, rows: result?.rows ?? [], notes: result?.notes ?? {} });
    });
  });
}

const fmt = (value) => {
  if (value === undefined || Number.isNaN(value)) return '';
  const abs = Math.abs(value);
  return abs >= 1000 ? value.toFixed(0) : abs >= 10 ? value.toFixed(1) : abs >= 1 ? value.toFixed(2) : value.toFixed(3);
};

function table(results) {
  const lines = [];
  const header = ['part', 'figure', 'median', 'min–max', 'unit', 'baseline', 'ratio', 'target'];
  const rows = results.flatMap((r) =>
    r.rows.map((row) => {
      const before = previous?.parts?.find((p) => p.name === r.name)?.rows?.find((p) => p.metric === row.metric);
      const change =
        before === undefined ? '' : ` (${row.median >= before.median ? '+' : ''}${(((row.median - before.median) / before.median) * 100).toFixed(1)}%)`;
      return [
        r.name,
        row.metric,
        `${fmt(row.median)}${change}`,
        row.min === undefined ? '' : `${fmt(row.min)}–${fmt(row.max)}`,
        row.unit,
        row.baseline === undefined ? '' : `${row.baseline} ${fmt(row.baselineMedian)}`,
        fmt(row.ratio),
        row.target === undefined ? '' : `${row.target} ${row.met ? 'met' : 'MISSED'}`,
      ];
    }),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  lines.push(line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line));
  return lines.join('\n');
}

if (!values['no-build']) execFileSync('npm', ['run', 'build'], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: availableParallelism(),
  node: process.version,
  pinning: canPin() ? 'taskset: servers on core 1, load on core 0' : 'none (no taskset or one core)',
  loadBefore: loadavg().map((x) => +x.toFixed(2)),
};
const work = mkdtempSync(join(tmpdir(), 'agentgen-bench-'));
const results = [];
try {
  for (const name of chosen) {
    process.stdout.write(`\n==== ${name} (bench/${parts[name].script}) ====\n`);
    results.push(await runPart(name, work));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
machine.loadAfter = loadavg().map((x) => +x.toFixed(2));

const commit = git('rev-parse', '--short', 'HEAD');
const dirty = git('status', '--porcelain') === '' ? '' : '+changes';
console.log(`\n==== agentgen benchmarks: commit ${commit}${dirty}, ${new Date().toISOString()} ====`);
console.log(`machine: ${machine.cpu}, ${machine.cores} cores, node ${machine.node}; pinning: ${machine.pinning}`);
console.log(`load average (1, 5, 15 min): before ${machine.loadBefore.join(' ')}, after ${machine.loadAfter.join(' ')}`);
if (previous !== undefined) console.log(`changes against ${values.compare} (commit ${previous.commit})`);
console.log(table(results));
for (const r of results) {
  const notes = Object.entries(r.notes).map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : v}`);
  console.log(`${r.name}: ${r.seconds.toFixed(0)} s${r.code === 0 ? '' : `, exited ${r.code}`}${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`);
}

const out = join(repo, 'bench/results');
mkdirSync(out, { recursive: true });
const file = join(out, `${new Date().toISOString().replace(/[:.]/g, '-')}-${commit}${dirty}.json`);
writeFileSync(file, `${JSON.stringify({ commit: `${commit}${dirty}`, date: new Date().toISOString(), machine, parts: results }, null, 2)}\n`);
console.log(`written: ${file.slice(repo.length)}`);
if (results.some((r) => r.code !== 0)) process.exitCode = 1;
