// How fast the `agentgen` command starts and finishes, as whole processes (`node cli/bin/agentgen.js
// ...`), against the cost of loading what each verb cannot do without, measured in the same run:
// `--help`, `--version`, `manifest` and `check` (nothing stale) against `node -e "import('yargs')"`,
// `generate` of the standard surface (into a new folder each time) against
// `node -e "import('ts-morph')"`, and `check` of a folder `generate` wrote against `generate`, on the
// standard surface and on the 1,000-operation spec of scale-spec.mjs. The issues' targets: --help
// <= 2x, manifest <= 2.5x, generate <= 1.25x import('ts-morph') (issue 48), check <= 0.5x generate.
//
//   npm run bench -- cli            (builds first; or: node bench/cli-startup.mjs [--rounds 10] [--warmup 1])
//
// Rounds are interleaved: each runs every command once, in an order rotated from round to round,
// so all see the same machine. Reported per command: wall time min / median / max; per pair: the
// ratio of the medians and the median of the per-round ratios (each round's pair ran close
// together, so it is less exposed to a busy machine's drift). A target counts as met when both
// are within it; the exit code is 1 when one is not. Informational rows: bare `node -e 0`, and
// `require('ts-morph')`, which is what `generate` does: an ESM import of that CommonJS bundle also
// scans it for named exports, which `require` skips.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median, recordResult, spread } from './result.mjs';
import { scaleSpec } from './scale-spec.mjs';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '10' }, warmup: { type: 'string', default: '1' } } });
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
if (!(rounds >= 1 && warmup >= 0)) throw new Error('--rounds must be >= 1 and --warmup >= 0');

const repo = fileURLToPath(new URL('..', import.meta.url));
const bin = join(repo, 'cli/bin/agentgen.js');
const work = mkdtempSync(join(tmpdir(), 'agentgen-bench-cli-'));
const standard = join(work, 'standard'); // no spec file: the standard surface
const withSpec = join(work, 'with-spec'); // an agentgen.yaml, read with yaml and checked with zod
const scale = join(work, 'scale'); // 1,000 operations of realistic shape, as JSON
mkdirSync(standard);
mkdirSync(withSpec);
mkdirSync(scale);
writeFileSync(join(scale, 'agentgen.json'), JSON.stringify(scaleSpec(1000)));
writeFileSync(
  join(withSpec, 'agentgen.yaml'),
  [
    'agentgen: 1',
    'name: bench-agent',
    'surface: agent-app',
    'include: [async_create_session, async_get_session, async_stream_query]',
    'operations:',
    '  summarize:',
    '    api_mode: async',
    '    description: Summarize a text.',
    '    input: { type: object, properties: { text: { type: string }, max_words: { type: integer, default: 50 } }, required: [text] }',
    '    output: { type: object, properties: { summary: { type: string } }, required: [summary] }',
    '',
  ].join('\n'),
);

let generated = 0;
const node = (label, args, cwd = repo) => ({ label, args: () => args, cwd });
const agentgen = (label, args, cwd = standard) => ({ label, args: () => [bin, ...args()], cwd });
const commands = [
  node('node -e 0', ['-e', '0']),
  node('import yargs', ['-e', "import('yargs')"]),
  node('import ts-morph', ['-e', "import('ts-morph')"]),
  node('require ts-morph', ['-e', "require('ts-morph')"]),
  agentgen('agentgen --version', () => ['--version']),
  agentgen('agentgen --help', () => ['--help']),
  agentgen('agentgen manifest', () => ['manifest']),
  agentgen('agentgen manifest (spec)', () => ['manifest'], withSpec),
  agentgen('agentgen check', () => ['check', '--out', 'current']),
  agentgen('agentgen generate', () => ['generate', '--out', `generated-${generated++}`]),
  agentgen('agentgen check (1000 operations)', () => ['check', '--spec', 'agentgen.json', '--out', 'current'], scale),
  agentgen('agentgen generate (1000 operations)', () => ['generate', '--spec', 'agentgen.json', '--out', `generated-${generated++}`], scale),
];
// [figure, baseline, target, metric]: the metric names the row; where one figure has several
// baselines, the others name theirs, so that a row can be cited by its metric alone.
const comparisons = [
  ['agentgen --help', 'import yargs', 2],
  ['agentgen --version', 'import yargs'],
  ['agentgen manifest', 'import yargs', 2.5],
  ['agentgen manifest (spec)', 'import yargs', 2.5],
  ['agentgen check', 'import yargs'],
  ['agentgen generate', 'import ts-morph', 1.25],
  ['agentgen generate', 'require ts-morph', undefined, 'agentgen generate, against require'],
  ['agentgen check', 'agentgen generate', 0.5, 'agentgen check, against generate'],
  ['agentgen check (1000 operations)', 'agentgen generate (1000 operations)', 0.5, 'agentgen check, against generate, 1000 operations'],
];

function once(command) {
  const args = command.args();
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: command.cwd, encoding: 'utf8' });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`${command.label} (node ${args.join(' ')}) exited ${result.status}: ${result.stderr}`);
  if (command.label.startsWith('agentgen check') && !/is up to date/.test(result.stdout))
    throw new Error(`check did not find the output current: ${result.stdout}`);
  return ms;
}

try {
  once(agentgen('prepare', () => ['generate', '--out', 'current']));
  once(agentgen('prepare', () => ['generate', '--spec', 'agentgen.json', '--out', 'current'], scale));
  const times = new Map(commands.map((c) => [c.label, []]));
  for (let round = -warmup; round < rounds; round++) {
    const shift = ((round % commands.length) + commands.length) % commands.length;
    for (const command of [...commands.slice(shift), ...commands.slice(0, shift)]) {
      const ms = once(command);
      if (round >= 0) times.get(command.label).push(ms);
    }
  }

  const ms = (x) => x.toFixed(0).padStart(5);
  console.log(`agentgen start-up: whole processes, ${rounds} interleaved rounds after ${warmup} warm-up; node ${process.version}`);
  console.log(`${'command'.padEnd(28)}  wall ms: min / median / max`);
  for (const [label, xs] of times) console.log(`${label.padEnd(28)}  ${ms(Math.min(...xs))} / ${ms(median(xs))} / ${ms(Math.max(...xs))}`);
  console.log('');
  console.log(`${'ratio'.padEnd(46)}  of medians   per-round median   target`);
  let missed = false;
  const rows = [];
  for (const [a, b, target, metric = a] of comparisons) {
    const [xa, xb] = [times.get(a), times.get(b)];
    const ratio = median(xa) / median(xb);
    const paired = median(xa.map((x, i) => x / xb[i]));
    const verdict = target === undefined ? '' : Math.max(ratio, paired) <= target ? `<= ${target}  met` : `<= ${target}  MISSED`;
    if (target !== undefined && Math.max(ratio, paired) > target) missed = true;
    console.log(`${`${a} / ${b}`.padEnd(46)}  ${ratio.toFixed(2).padStart(10)}   ${paired.toFixed(2).padStart(16)}   ${verdict}`);
    const targetFields = target === undefined ? {} : { target: `<= ${target}`, met: Math.max(ratio, paired) <= target };
    rows.push({ metric, unit: 'ms', ...spread(xa), baseline: b, baselineMedian: median(xb), ratio, ...targetFields });
  }
  recordResult('CLI start-up', rows);
  if (missed) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
