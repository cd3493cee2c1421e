// Start-up of a container without an A2A face, two builds of the runtime paired in one run, each
// measured inside the container's process (less exposed to a loaded machine than a spawn's wall
// time): from the process's start to its first 200 of GET /health (performance.now()), the import of
// the runtime's server entry alone, and the CPU the process used by then (process.cpuUsage(),
// user + system, µs). Written to measure the A2A modules' lazy load (issue 43's leftover): the
// baseline is a copy of runtime/dist built before the change.
//
//   node bench/lazy-a2a-start.mjs --before DIST --after DIST [--rounds 15]
//
// Both folders must sit where `zod` resolves (inside the repository, e.g. node_modules/.cache/).
// Rounds alternate the order, after one warm-up round of each.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median, spread } from './result.mjs';

const { values } = parseArgs({
  options: { before: { type: 'string' }, after: { type: 'string' }, rounds: { type: 'string', default: '15' }, child: { type: 'string' } },
});

if (values.child !== undefined) {
  // The container: a generated server's start, without a face.
  const importStart = performance.now();
  const { createContainer } = await import(pathToFileURL(resolve(values.child, 'codegenv1/server.js')).href);
  const importMs = performance.now() - importStart;
  const server = createContainer(new Map(), {}, { port: 0, host: '127.0.0.1', logger: false });
  const { port } = await server.listen();
  const health = await fetch(`http://127.0.0.1:${port}/health`);
  if (health.status !== 200) throw new Error(`health answered ${health.status}`);
  const cpu = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ ms: performance.now(), importMs, cpu: (cpu.user + cpu.system) / 1000 })}\n`);
  await server.close();
} else {
  if (values.before === undefined || values.after === undefined) throw new Error('--before DIST and --after DIST are required');
  const rounds = Number(values.rounds);
  const self = fileURLToPath(import.meta.url);
  const once = (dist) =>
    new Promise((done, fail) => {
      const child = spawn(process.execPath, [self, '--child', resolve(dist)], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.on('error', fail);
      child.on('exit', (code) => (code === 0 ? done(JSON.parse(out)) : fail(new Error(`the container exited ${code}`))));
    });
  const sides = { before: values.before, after: values.after };
  const runs = { before: [], after: [] };
  await once(sides.before);
  await once(sides.after);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
    for (const side of order) runs[side].push(await once(sides[side]));
  }
  const show = (side, key) => {
    const s = spread(runs[side].map((run) => run[key]));
    return `${s.median.toFixed(1)} (${s.min.toFixed(1)}–${s.max.toFixed(1)})`;
  };
  const ratio = (key) => median(runs.after.map((run, i) => run[key] / runs.before[i][key])).toFixed(3);
  console.log(`${rounds} rounds; median (min–max)`);
  for (const [key, what] of [
    ['ms', 'process start to first 200, ms'],
    ['importMs', 'import of the server entry, ms'],
    ['cpu', 'CPU to first 200, ms'],
  ]) {
    console.log(`${what}: before ${show('before', key)}, after ${show('after', key)}, median per-round ratio ${ratio(key)}`);
  }
}
