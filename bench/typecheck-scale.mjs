// What it costs a user to type-check a large output (issue 17 item 6): a spec of N custom
// operations of realistic shape (see scale-spec.mjs) is generated with the built CLI, then
// `tsc --strict --noEmit` (the repo's TypeScript, every strict flag the golden outputs are checked
// under) type-checks it, RUNS times per size. Reported per size: the median and min–max of wall
// time, peak RSS (GNU time's %M, the whole tsc process) and tsc's own "Memory used" (its heap, from
// --extendedDiagnostics), and peak RSS per operation. tsc runs under a capped heap
// (--max-old-space-size, default 4096 MB) so that an out-of-memory run is reported, not swapped.
// --tsc 7 runs TypeScript 7 (the `typescript-7` devDependency; a Go program: --heap does not
// apply, its peak RSS and "Memory used" are what it needs) in place of the repo's 5.9.
//
// Run: npm run bench:typecheck -- [sizes, default 1000,5000] [--tsc 5|7] [--runs 3] [--heap 4096] [--files types,validators,...] [--tag NAME]
// --tag names the work folder (under node_modules/.cache/), so that two checkouts can run side by side.
// --files narrows what tsc is given (the other files are still reached through imports).

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compilers, tscCommand } from '../test/tsc/compilers.mjs';
import { median, recordResult, spread } from './result.mjs';
import { scaleSpec, strictCompilerOptions } from './scale-spec.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? fallback : args.splice(i, 2)[1];
};
const runs = Number(option('runs', '3'));
const heapMb = Number(option('heap', '4096'));
const files = option('files', undefined)?.split(',');
const tag = option('tag', 'current');
const major = Number(option('tsc', '5'));
const compiler = compilers.find((c) => c.major === major);
if (compiler === undefined) throw new Error(`--tsc ${major}: expected one of ${compilers.map((c) => c.major).join(', ')}`);
const tsc = await tscCommand(compiler, { heapMb });
const sizes = (args[0] ?? '1000,5000').split(',').map(Number);

// Under node_modules/, so that the output resolves zod and @agentgen/runtime as a user's would.
const work = join(root, 'node_modules/.cache/agentgen-typecheck-scale', tag);

function generateOutput(n) {
  const dir = join(work, String(n));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'agentgen.json'), JSON.stringify(scaleSpec(n)));
  execFileSync(process.execPath, [join(root, 'cli/bin/agentgen.js'), 'generate', '--spec', join(dir, 'agentgen.json'), '--out', join(dir, 'out')], {
    stdio: 'inherit',
    timeout: 10 * 60_000,
  });
  const include = files === undefined ? ['out/**/*.ts'] : files.map((f) => `out/${f}.ts`);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: strictCompilerOptions, include }, null, 2));
  return dir;
}

function typecheckOnce(dir) {
  const run = spawnSync('/usr/bin/time', ['-f', 'agentgen-time %M %e', tsc.file, ...tsc.args, '-p', dir, '--extendedDiagnostics'], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    timeout: 30 * 60_000,
    killSignal: 'SIGKILL',
  });
  const out = `${run.stdout}\n${run.stderr}`;
  const [, rssKb, seconds] = /agentgen-time (\d+) ([\d.]+)/.exec(out) ?? [];
  const heap = /Memory used:\s+(\d+)K/.exec(out)?.[1];
  const stat = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(out)?.[1] ?? NaN);
  const errors = out.split('\n').filter((line) => /error TS\d+/.test(line));
  return {
    ok: run.status === 0,
    oom: /heap out of memory|Allocation failed/i.test(out),
    errors,
    seconds: Number(seconds),
    rssMb: Number(rssKb) / 1024,
    heapMb: heap === undefined ? NaN : Number(heap) / 1024,
    types: stat('Types'),
    instantiations: stat('Instantiations'),
  };
}

const describe = (xs, digits) => `median ${median(xs).toFixed(digits)} (min ${Math.min(...xs).toFixed(digits)}, max ${Math.max(...xs).toFixed(digits)})`;

console.log(
  `${compiler.name} (typescript ${tsc.version})${compiler.major < 7 ? `, heap cap ${heapMb} MB` : ''}, ${runs} runs per size${files ? `, files: ${files.join(',')}` : ''}`,
);
const rows = [];
for (const n of sizes) {
  const dir = generateOutput(n);
  const results = [];
  for (let i = 0; i < runs; i++) {
    const r = typecheckOnce(dir);
    results.push(r);
    const status = r.ok ? 'ok' : r.oom ? 'OUT OF MEMORY' : `FAILED (${r.errors.length} errors: ${r.errors.slice(0, 3).join(' | ')})`;
    console.log(
      `  ${n} ops, run ${i + 1}: ${status}, ${r.seconds.toFixed(1)} s, peak RSS ${r.rssMb.toFixed(0)} MB, tsc heap ${r.heapMb.toFixed(0)} MB, types ${r.types}, instantiations ${r.instantiations}`,
    );
  }
  const rss = results.map((r) => r.rssMb);
  console.log(`${n} operations:`);
  console.log(
    `  time       ${describe(
      results.map((r) => r.seconds),
      1,
    )} s`,
  );
  console.log(`  peak RSS   ${describe(rss, 0)} MB  → ${(median(rss) / n).toFixed(3)} MB per operation`);
  console.log(
    `  tsc heap   ${describe(
      results.map((r) => r.heapMb),
      0,
    )} MB  → ${(median(results.map((r) => r.heapMb)) / n).toFixed(3)} MB per operation`,
  );
  if (results.some((r) => !r.ok)) process.exitCode = 1;
  const perOp = median(results.map((r) => r.heapMb)) / n;
  rows.push(
    { metric: `tsc heap, ${n} operations`, unit: 'MB', ...spread(results.map((r) => r.heapMb)) },
    // The goal (issue 17) is set at 5,000 operations, where the fixed cost (zod's and Node's types, about 76 MB) is spread thin.
    { metric: `tsc heap per operation, ${n} operations`, unit: 'MB', median: perOp, ...(n >= 5000 ? { target: '<= 0.3 MB', met: perOp <= 0.3 } : {}) },
    { metric: `tsc time, ${n} operations`, unit: 's', ...spread(results.map((r) => r.seconds)) },
  );
}
recordResult('type-checking the output', rows);
