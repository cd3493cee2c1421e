// TypeScript the benchmarks borrow from the repository's sources (test helpers, the emulator),
// bundled by esbuild for one benchmark process: packages stay external except `@agentgen/*`,
// which resolve to their sources (`@agentgen/source`), so a benchmark measures the checkout as it
// is, not whatever build happens to lie in dist/. Used by bench/replicas.mjs and bench/turn-cost.mjs.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { sourceBundleOptions } from '../scripts/source-bundle.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));

/**
 * Bundles `exports` (lines such as `export { startPostgres } from './test/helpers/postgres.ts';`,
 * paths from the repository's root) and imports the bundle; `remove()` deletes it.
 */
export async function loadHarness(name, exports) {
  const cache = join(repo, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, `agentgen-bench-${name}-`));
  const outfile = join(dir, 'harness.mjs');
  await build({
    ...sourceBundleOptions,
    stdin: { contents: exports.join('\n'), resolveDir: repo, loader: 'ts' },
    outfile,
  });
  return { harness: await import(outfile), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
