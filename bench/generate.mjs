// Generation time: the standard surface and specs of 100, 1,000 and 5,000 operations of realistic
// shape (scale-spec.mjs), both in-process (load → resolve → emit, no disk writes, ts-morph loaded
// before timing) and as a cold CLI (`node cli/bin/agentgen.js generate` into a new folder), with
// `node -e "import('ts-morph')"` timed in the same run as the floor every cold generate pays. The
// targets (issue 13): 1,000 operations in <= 2.0 s cold, and a cost per operation that stays
// linear up to 5,000.
//
//   npm run bench -- generate            (builds first; or: node bench/generate.mjs [--sizes 100,1000,5000] [--runs 3])
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadAssets } from '../cli/dist/generator/assets.js';
import { emitAll } from '../cli/dist/generator/emit/emit-all.js';
import { tsMorph } from '../cli/dist/generator/emit/ts-morph.js';
import { noSpecSource, parseSpec } from '../cli/dist/generator/load/load-spec.js';
import { resolve } from '../cli/dist/generator/resolve/resolve.js';
import { median, recordResult, spread } from './result.mjs';
import { scaleSpec } from './scale-spec.mjs';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '100,1000,5000' }, runs: { type: 'string', default: '3' } } });
const sizes = values.sizes.split(',').map(Number);
const runs = Number(values.runs);
const repo = fileURLToPath(new URL('..', import.meta.url));
const bin = join(repo, 'cli/bin/agentgen.js');

tsMorph(); // loaded on first use by `generate`; its load time is start-up, which the cold rows include

// load → resolve → emit in memory, as test/helpers/generate.ts composes the stages.
const generate = (model) => emitAll(model, loadAssets({ bundledRuntime: model.runtime === 'bundle' }));
const generateFromText = (text, source) => generate(resolve(parseSpec(text, source)));

const timed = (fn) => {
  const start = performance.now();
  fn();
  return performance.now() - start;
};
const standardSurface = () => generate(resolve({ source: noSpecSource, document: undefined, locate: () => undefined }));
const rows = [];

const cold = timed(standardSurface);
const warm = Array.from({ length: 30 }, () => timed(standardSurface));
console.log(`standard surface, in-process: first run ${cold.toFixed(1)} ms, warm median of 30 ${median(warm).toFixed(1)} ms`);
rows.push({ metric: 'standard surface, in-process (warm)', unit: 'ms', ...spread(warm) });

const work = mkdtempSync(join(tmpdir(), 'agentgen-bench-generate-'));
/** Wall time of one whole process, failing loudly. */
function processMs(args, cwd) {
  const start = performance.now();
  const run = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return ms;
}
try {
  const floor = [];
  const perSize = new Map(sizes.map((n) => [n, { inProcess: [], cli: [] }]));
  for (const n of sizes) writeFileSync(join(work, `spec-${n}.json`), JSON.stringify(scaleSpec(n)));
  // One unmeasured in-process run of each size first: the smallest would otherwise carry the JIT's warm-up.
  for (const n of sizes) generateFromText(JSON.stringify(scaleSpec(n)), 'agentgen.json');
  for (let run = 0; run < runs; run++) {
    floor.push(processMs(['-e', "import('ts-morph')"], repo));
    for (const n of sizes) {
      const text = JSON.stringify(scaleSpec(n));
      perSize.get(n).inProcess.push(timed(() => generateFromText(text, 'agentgen.json')));
      perSize.get(n).cli.push(processMs([bin, 'generate', '--spec', join(work, `spec-${n}.json`), '--out', join(work, `out-${n}-${run}`)], work));
    }
  }
  console.log(
    `import('ts-morph') as a process: median ${median(floor).toFixed(0)} ms [${Math.min(...floor).toFixed(0)}–${Math.max(...floor).toFixed(0)}], ${runs} runs`,
  );
  for (const n of sizes) {
    const { inProcess, cli } = perSize.get(n);
    const perOp = (median(inProcess) / n).toFixed(2);
    console.log(
      `${String(n).padStart(5)} operations: in-process median ${median(inProcess).toFixed(0)} ms (${perOp} ms an operation); ` +
        `cold CLI median ${median(cli).toFixed(0)} ms [${Math.min(...cli).toFixed(0)}–${Math.max(...cli).toFixed(0)}], ${(median(cli) / median(floor)).toFixed(2)}× import('ts-morph')`,
    );
    rows.push({ metric: `${n} operations, in-process`, unit: 'ms', ...spread(inProcess) });
    const target = n === 1000 ? { target: '<= 2000 ms', met: median(cli) <= 2000 } : {};
    rows.push({
      metric: `${n} operations, cold CLI`,
      unit: 'ms',
      ...spread(cli),
      baseline: "import('ts-morph')",
      baselineMedian: median(floor),
      ratio: median(cli) / median(floor),
      ...target,
    });
  }
  // Linear: the cost per operation at the largest size against the smallest (1.0 is linear).
  if (sizes.length > 1) {
    const [small, large] = [Math.min(...sizes), Math.max(...sizes)];
    const perOp = (n) => median(perSize.get(n).inProcess) / n;
    const growth = perOp(large) / perOp(small);
    console.log(`cost per operation at ${large} / at ${small}: ${growth.toFixed(2)} (1.00 is linear)`);
    rows.push({
      metric: `in-process cost per operation, ${large} vs ${small} operations`,
      unit: '×',
      median: growth,
      target: '<= 1.5 (linear)',
      met: growth <= 1.5,
    });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
recordResult('generation', rows);
