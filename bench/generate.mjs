// Generation time of the standard surface, in-process: load → resolve → emit (no disk writes),
// as `agentgen generate` runs it. Reports the first (cold: template compilation, first use of the
// printer; loading ts-morph itself is done before timing, `npm run bench:cli` measures it) and the
// median of warm runs. There is no hand-written baseline for a generator:
// the bar is the "well under a second".
// Run: npm run bench:generate
import { performance } from 'node:perf_hooks';
import { generate } from '../cli/dist/generator/generate.js';
import { resolve } from '../cli/dist/generator/resolve/resolve.js';
import { noSpecSource } from '../cli/dist/generator/load/load-spec.js';
import { tsMorph } from '../cli/dist/generator/emit/ts-morph.js';

tsMorph(); // loaded on first use by `generate`; its load time is start-up, not generation

const once = () => {
  const start = performance.now();
  const model = resolve({ source: noSpecSource, document: undefined, locate: () => undefined });
  const files = generate(model);
  const ms = performance.now() - start;
  return { ms, bytes: files.reduce((n, f) => n + f.contents.length, 0), files: files.length };
};

const cold = once();
const warm = Array.from({ length: 30 }, once).map((r) => r.ms).sort((a, b) => a - b);
const median = warm[Math.floor(warm.length / 2)];
console.log(`standard surface: ${cold.bytes} bytes of output in ${cold.files} files`);
console.log(`cold (first run in the process): ${cold.ms.toFixed(1)} ms`);
console.log(`warm median of ${warm.length}: ${median.toFixed(1)} ms (min ${warm[0].toFixed(1)}, max ${warm.at(-1).toFixed(1)})`);
