/**
 * The pipeline, load → resolve → emit → write, as the CLI runs it (through `index.ts`): each
 * step loads only what it needs: yaml and zod only when there is a spec file to read, handlebars only with the
 * emitters, ts-morph only when something is printed. `agentgen manifest` without a spec file loads
 * none of them. Every way from a spec to its model is here: resolve is called nowhere else.
 */
import { access } from 'node:fs/promises';
import type { LoadedSpec } from './load/load-spec.js';
import { defaultSpecFile, noSpecSource } from './load/spec-defaults.js';
import type { EmittedFile, Model } from './model.js';
import { withEveryProblem } from './resolve/every-problem.js';
import { type ResolveOptions, resolve } from './resolve/resolve.js';
import type { StaleFile, WriteReport } from './write/write-policy.js';

/** What `resolve` makes the standard surface from: no spec document. */
export const standardSurface: LoadedSpec = { source: noSpecSource, document: undefined, locate: () => undefined };

/** Load and resolve: `specFile` (absolute), else `agentgen.yaml` in `cwd`, else the standard surface. */
export async function loadModel(specFile: string | undefined, cwd: string, options?: ResolveOptions): Promise<Model> {
  return (await loadSpecAndModel(specFile, cwd, options)).model;
}

/** A spec as loaded (its document, for the sections resolve leaves to others: `deploy:`) and its model. */
export interface SpecAndModel {
  readonly loaded: LoadedSpec;
  readonly model: Model;
}

/** `loadModel`, keeping the loaded spec too. */
export async function loadSpecAndModel(specFile: string | undefined, cwd: string, options?: ResolveOptions): Promise<SpecAndModel> {
  const loaded = await loadSpecFile(specFile, cwd);
  return { loaded, model: resolve(loaded, options) };
}

/** The model of a spec given as text (`source` names it in errors): a template's, say. */
export async function modelOfText(text: string, source: string): Promise<Model> {
  const { parseSpec } = await import('./load/load-spec.js');
  return resolve(parseSpec(text, source));
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

/**
 * `generate`: resolves the loaded spec, emits it and writes what changed into `outDir`, removing
 * what an earlier run wrote and this one no longer does (`write/write-policy.ts`); then records
 * what was written, so that `check` can trust the folder without printing it again. `out` names
 * the folder as the user gave it, for messages.
 */
export async function generateOutput(
  loaded: LoadedSpec,
  options: ResolveOptions,
  outDir: string,
  out: string,
): Promise<WriteReport & { files: EmittedFile[] }> {
  const model = resolve(loaded, options);
  const [{ prepareOutputRecord, recordOutput }, { writeEmitted }] = await Promise.all([import('./write/output-record.js'), import('./write/write-policy.js')]);
  prepareOutputRecord();
  const files = await emitModel(model);
  const report = await writeEmitted(outDir, out, files);
  await recordOutput(outDir, model, files);
  return { ...report, files };
}

/** What `check` found: the output is current (with its file count), or these files are stale. */
export type CheckReport = { readonly upToDate: true; readonly files: number } | { readonly upToDate: false; readonly stale: readonly StaleFile[] };

/**
 * `check`: up to date when the whole output is on disk byte for byte, and nothing is left over.
 * When the record of what `generate` last wrote here has this model's and this generator's key
 * and every file on disk still has its recorded digest (`write/output-record.ts`), the output is
 * what emit would give without printing it; otherwise it is emitted again and compared, which
 * also names what is stale.
 */
export async function checkOutput(loaded: LoadedSpec, options: ResolveOptions, outDir: string, out: string): Promise<CheckReport> {
  const model = resolve(loaded, options);
  const [{ recordedOutput, recordOutput }, { leftoverFiles, staleEmitted }] = await Promise.all([
    import('./write/output-record.js'),
    import('./write/write-policy.js'),
  ]);
  const recorded = await recordedOutput(outDir, model);
  if (
    recorded !== undefined &&
    (
      await leftoverFiles(
        outDir,
        recorded.map((path) => ({ path })),
      )
    ).length === 0
  ) {
    return { upToDate: true, files: recorded.length };
  }
  const files = await emitModel(model);
  const stale = await staleEmitted(outDir, out, files);
  if (stale.length > 0) return { upToDate: false, stale };
  await recordOutput(outDir, model, files);
  return { upToDate: true, files: files.length };
}
