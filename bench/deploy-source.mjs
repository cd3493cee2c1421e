// What packing the project costs a deploy from source: `agentgen deploy --dry-run` of a project
// without `image:` (packs it: walk, ignore rules, tar, gzip, sha256) against the same dry run with
// `image:` set (no packing), as whole processes in the same run. The project is the scaffold's
// shape at a realistic size: src/ and generated/ files, a package-lock.json, and a node_modules/
// of 5,000 files that must be skipped, not read.
//
//   npm run bench -- deploy         (builds first; or: node bench/deploy-source.mjs [--rounds 10] [--warmup 1])
//
// Rounds are interleaved (the two commands alternate, the order flipping each round). Reported:
// wall time min / median / max of each, the ratio of the medians and the median per-round ratio,
// and the archive's size and file count.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median, recordResult, spread } from './result.mjs';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '10' }, warmup: { type: 'string', default: '1' } } });
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
if (!(rounds >= 1 && warmup >= 0)) throw new Error('--rounds must be >= 1 and --warmup >= 0');

const repo = fileURLToPath(new URL('..', import.meta.url));
const bin = join(repo, 'cli/bin/agentgen.js');
const work = mkdtempSync(join(tmpdir(), 'agentgen-bench-deploy-'));

/** A project: the spec (with or without image), a Dockerfile, sources, a lockfile, node_modules to skip. */
function project(name, image) {
  const dir = join(work, name);
  const spec = ['agentgen: 1', 'name: bench-agent', 'surface: agent-app@2', 'deploy:', '  project: bench-project', '  location: us-central1'];
  if (image) spec.push('  image: us-central1-docker.pkg.dev/bench-project/agents/bench-agent:v1');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'agentgen.yaml'), `${spec.join('\n')}\n`);
  writeFileSync(join(dir, 'Dockerfile'), 'FROM node:24-slim\nWORKDIR /app\nCOPY . .\nRUN npm ci\nCMD ["node", "dist/src/main.js"]\n');
  writeFileSync(join(dir, '.dockerignore'), 'node_modules\ndist\n*.tgz\n.env\n');
  writeFileSync(
    join(dir, 'package-lock.json'),
    `${JSON.stringify({ lockfileVersion: 3, packages: Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`node_modules/p${i}`, { version: '1.0.0', resolved: `https://registry.npmjs.org/p${i}/-/p${i}-1.0.0.tgz`, integrity: `sha512-${'x'.repeat(86)}` }])) }, null, 2)}\n`,
  );
  for (let i = 0; i < 40; i++) writeFileSync(join(dir, 'src', `module-${i}.ts`), `export const value${i} = ${JSON.stringify('x'.repeat(2000))};\n`);
  for (let i = 0; i < 50; i++) {
    const pkg = join(dir, 'node_modules', `p${i}`);
    mkdirSync(pkg, { recursive: true });
    for (let j = 0; j < 100; j++) writeFileSync(join(pkg, `f${j}.js`), 'module.exports = 1;\n');
  }
  return dir;
}

const commands = [
  { label: 'deploy --dry-run, from source', cwd: project('source', false) },
  { label: 'deploy --dry-run, image', cwd: project('image', true) },
];

let archive;
function once(command) {
  const start = performance.now();
  const result = spawnSync(process.execPath, [bin, 'deploy', '--dry-run'], { cwd: command.cwd, encoding: 'utf8' });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`${command.label} exited ${result.status}: ${result.stderr}`);
  const held = /The archive holds (\d+) files \((\d+) bytes/.exec(result.stdout);
  if (held !== null) archive = { files: Number(held[1]), bytes: Number(held[2]) };
  return ms;
}

try {
  const times = new Map(commands.map((c) => [c.label, []]));
  for (let round = -warmup; round < rounds; round++) {
    for (const command of round % 2 === 0 ? commands : [...commands].reverse()) {
      const ms = once(command);
      if (round >= 0) times.get(command.label).push(ms);
    }
  }
  if (archive === undefined) throw new Error('the source dry run did not report its archive');
  const [source, image] = commands.map((c) => times.get(c.label));
  const ms = (x) => x.toFixed(0).padStart(5);
  console.log(`agentgen deploy --dry-run: whole processes, ${rounds} interleaved rounds after ${warmup} warm-up; node ${process.version}`);
  for (const [label, xs] of times) console.log(`${label.padEnd(32)}  wall ms: ${ms(Math.min(...xs))} / ${ms(median(xs))} / ${ms(Math.max(...xs))}`);
  const ratio = median(source) / median(image);
  const paired = median(source.map((x, i) => x / image[i]));
  console.log(`from source / image: ${ratio.toFixed(2)} of medians, ${paired.toFixed(2)} per round`);
  console.log(`archive: ${archive.files} files, ${archive.bytes} bytes (node_modules/ of 5,000 files skipped)`);
  recordResult(
    'deploy from source',
    [{ metric: 'deploy --dry-run, from source', unit: 'ms', ...spread(source), baseline: 'deploy --dry-run, image', baselineMedian: median(image), ratio }],
    { archiveFiles: archive.files, archiveBytes: archive.bytes, pairedRatio: paired },
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
