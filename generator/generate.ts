/**
 * The pipeline in one place: load → resolve → emit. Writing is the caller's (CLI's) step.
 * `loadModel` is the CLI's (`cli/pipeline.ts`), which loads yaml and zod only when there is a spec
 * file to read; this module loads them for `generateFromText`.
 */
import { loadAssets } from './assets.js';
import { emitAll } from './emit/emit-all.js';
import { parseSpec } from './load/load-spec.js';
import type { EmittedFile, Model } from './model.js';
import { resolve, type ResolveOptions } from './resolve/resolve.js';

export { loadModel } from './cli/pipeline.js';

/** In memory, from spec text: for tests, tools and benchmarks. */
export function generateFromText(text: string, source = 'agentgen.yaml', options?: ResolveOptions): { model: Model; files: EmittedFile[] } {
  const model = resolve(parseSpec(text, source), options);
  return { model, files: generate(model) };
}

export function generate(model: Model): EmittedFile[] {
  return emitAll(model, loadAssets({ bundledRuntime: model.runtime === 'bundle' }));
}
