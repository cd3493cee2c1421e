/**
 * The pipeline in memory and synchronously, from spec text: load → resolve → emit with no file
 * read or written. For tests only; the CLI runs `generator/pipeline.ts`, which loads each stage
 * when it is needed.
 */
import { loadAssets } from '../../generator/assets.js';
import { emitAll } from '../../generator/emit/emit-all.js';
import { type LoadedSpec, parseSpec } from '../../generator/load/load-spec.js';
import type { EmittedFile, Model } from '../../generator/model.js';
import { withEveryProblem } from '../../generator/resolve/every-problem.js';
import { type ResolveOptions, resolve } from '../../generator/resolve/resolve.js';

export function generateFromText(text: string, source = 'agentgen.yaml', options?: ResolveOptions): { model: Model; files: EmittedFile[] } {
  const model = resolve(parseSpecAsTheCliDoes(text, source), options);
  return { model, files: generate(model) };
}

/** `parseSpec`, refused with every problem as `loadSpecFile` refuses it: resolve's too. */
export function parseSpecAsTheCliDoes(text: string, source = 'agentgen.yaml'): LoadedSpec {
  try {
    return parseSpec(text, source);
  } catch (error) {
    throw withEveryProblem(error);
  }
}

export function generate(model: Model): EmittedFile[] {
  return emitAll(model, loadAssets({ bundledRuntime: model.runtime === 'bundle' }));
}
