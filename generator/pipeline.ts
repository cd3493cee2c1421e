/**
 * The pipeline, load → resolve → emit (writing is `write/write-output.ts`), as the CLI runs it: each
 * step loads only what it needs: yaml and zod only when there is a spec file to read, handlebars only with the
 * emitters, ts-morph only when something is printed. `agentgen manifest` without a spec file loads
 * none of them.
 */
import { access } from 'node:fs/promises';
import type { LoadedSpec } from './load/load-spec.js';
import { defaultSpecFile, noSpecSource } from './load/spec-defaults.js';
import type { EmittedFile, Model } from './model.js';
import { withEveryProblem } from './resolve/every-problem.js';
import { type ResolveOptions, resolve } from './resolve/resolve.js';

/** What `resolve` makes the standard surface from: no spec document. */
export const standardSurface: LoadedSpec = { source: noSpecSource, document: undefined, locate: () => undefined };

/** Load and resolve: `specFile` (absolute), else `agentgen.yaml` in `cwd`, else the standard surface. */
export async function loadModel(specFile: string | undefined, cwd: string, options?: ResolveOptions): Promise<Model> {
  return resolve(await loadSpecFile(specFile, cwd), options);
}

/**
 * Load: `specFile` (absolute; an error when it cannot be read), else `agentgen.yaml` in `cwd`,
 * else `standardSurface` (the only case whose `document` is undefined). A spec that load refuses
 * is refused with resolve's problems too (see `resolve/every-problem.ts`): one run reports them all.
 */
export async function loadSpecFile(specFile: string | undefined, cwd: string): Promise<LoadedSpec> {
  // The same path `loadSpec` reads; when it is there (or unreadable), `loadSpec` reads or reports it.
  if (specFile === undefined && (await missing(`${cwd}/${defaultSpecFile}`))) return standardSurface;
  const { loadSpec } = await import('./load/load-spec.js');
  try {
    return await loadSpec(specFile, cwd);
  } catch (error) {
    throw withEveryProblem(error);
  }
}

/** True when nothing is at `path` (and false when something is, readable or not). */
export async function missing(path: string): Promise<boolean> {
  return access(path).then(
    () => false,
    (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
  );
}

/** Emit: every output file for the model (see `emit/emit-all.ts`). */
export async function emitModel(model: Model): Promise<EmittedFile[]> {
  const [{ loadAssets }, { emitAll }] = await Promise.all([import('./assets.js'), import('./emit/emit-all.js')]);
  return emitAll(model, loadAssets({ bundledRuntime: model.runtime === 'bundle' }));
}
