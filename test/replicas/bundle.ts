/**
 * Bundles a TypeScript entry point (the example's main.ts, a test target) with esbuild into one
 * file a child `node` runs (options: scripts/source-bundle.mjs). The bundle goes under
 * node_modules/.cache so the packages it leaves external resolve from the repository's node_modules.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { sourceBundleOptions } from '../../scripts/source-bundle.mjs';

/** The repository's root: found upwards, as this file may itself run from a bundle (bench/replicas.mjs). */
export const repositoryRoot = ((): string => {
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'examples', 'weather-agent', 'agentgen.yaml'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no agentgen repository above ${import.meta.dirname}`);
  }
})();

export interface Bundle {
  readonly file: string;
  remove(): void;
}

export async function bundleEntry(entry: string): Promise<Bundle> {
  const cache = join(repositoryRoot, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'agentgen-bundle-'));
  const file = join(dir, 'main.mjs');
  await build({
    ...sourceBundleOptions,
    entryPoints: [entry],
    outfile: file,
  });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
