/** The pipeline in one place: load → resolve → emit. Writing is the caller's (CLI's) step. */
import { loadAssets } from './assets.js';
import { emitAll } from './emit/emit-all.js';
import { loadSpec, parseSpec } from './load/load-spec.js';
import type { EmittedFile, Model } from './model.js';
import { resolve, type ResolveOptions } from './resolve/resolve.js';

export async function loadModel(specFile: string | undefined, cwd: string, options?: ResolveOptions): Promise<Model> {
  return resolve(await loadSpec(specFile, cwd), options);
}

/** In memory, from spec text: for tests, tools and benchmarks. */
export function generateFromText(text: string, source = 'agentgen.yaml', options?: ResolveOptions): { model: Model; files: EmittedFile[] } {
  const model = resolve(parseSpec(text, source), options);
  return { model, files: generate(model) };
}

export function generate(model: Model): EmittedFile[] {
  return emitAll(model, loadAssets({ bundledRuntime: model.runtime === 'bundle' }));
}
