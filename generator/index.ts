/**
 * The generator's one face for the CLI: load and resolve a spec, its manifest and deploy
 * configuration, the deploy renderings (the create request, shell commands, Terraform), and
 * `generate` / `check` of an output folder. `cli/src` imports nothing else of `generator/`
 * (test/layering/ holds it to that).
 *
 * Two kinds of export, so that `agentgen --help` stays cheap (test/generator/cli-modules.test.ts):
 * what is light (errors, names and defaults, the deploy section's rules, escaping) is exported as
 * it is; what loads the contract, a parser, the templates or the printer is an async function that
 * imports its room when first called.
 */

import type { ManifestEntry, ReasoningEngineBody } from '../contract/index.js';
import type { SourceInput, SourceSummary } from './deploy/create-request.js';
import type { TokenSource } from './deploy/shell.js';
import type { LoadedSpec } from './load/load-spec.js';
import { defaultSpecFile } from './load/spec-defaults.js';
import type { EmittedFile, Model } from './model.js';
import type { CheckReport, SpecAndModel } from './pipeline.js';
import type { DeployConfig } from './resolve/deploy-config.js';
import type { ResolveOptions } from './resolve/resolve.js';
import type { WriteReport } from './write/write-policy.js';

export type { SourceSummary } from './deploy/create-request.js';
export type { TokenSource } from './deploy/shell.js';
export { tsMorph } from './emit/ts-morph.js';
export type { LoadedSpec } from './load/load-spec.js';
export { defaultSpecFile, type ImportExtension, importExtensions, noSpecSource, type RuntimeMode, runtimeModes } from './load/spec-defaults.js';
export { inTextOrder, SpecError, type SpecProblem } from './load/spec-error.js';
export type { A2AFaceModel, EmittedFile, Model } from './model.js';
export { nearestName } from './nearest-name.js';
export type { CheckReport, SpecAndModel } from './pipeline.js';
export { asyncQueryChange, type DeployConfig, resolveDeploy } from './resolve/deploy-config.js';
export { asyncQueryLabel, sourceDigestLabel } from './resolve/deploy-rules.js';
export type { Environment } from './resolve/env-references.js';
export type { ResolveOptions } from './resolve/resolve.js';
export { lineComment, stringLiteral } from './schema/escape.js';
export { generatorVersion } from './version.js';
export type { StaleFile, WriteReport } from './write/write-policy.js';

const pipeline = () => import('./pipeline.js');
const createRequest = () => import('./deploy/create-request.js');

/** The spec at `specFile` (absolute), else `agentgen.yaml` in `cwd`, else the standard surface, as loaded (not resolved). */
export async function loadSpecFile(specFile: string | undefined, cwd: string): Promise<LoadedSpec> {
  return (await pipeline()).loadSpecFile(specFile, cwd);
}

/** The standard surface, as `loadSpecFile` gives it when there is no spec file. */
export async function standardSurface(): Promise<LoadedSpec> {
  return (await pipeline()).standardSurface;
}

/** The model of the spec `loadSpecFile` finds. */
export async function loadModel(specFile: string | undefined, cwd: string, options?: ResolveOptions): Promise<Model> {
  return (await pipeline()).loadModel(specFile, cwd, options);
}

/** `loadModel`, keeping the loaded spec (its `deploy:` section is resolved apart: `resolveDeploy`). */
export async function loadSpecAndModel(specFile: string | undefined, cwd: string, options?: ResolveOptions): Promise<SpecAndModel> {
  return (await pipeline()).loadSpecAndModel(specFile, cwd, options);
}

/** The model of a spec given as text; `source` names it in errors. */
export async function modelOfText(text: string, source: string): Promise<Model> {
  return (await pipeline()).modelOfText(text, source);
}

/** Every output file of a model, in memory. */
export async function emitModel(model: Model): Promise<EmittedFile[]> {
  return (await pipeline()).emitModel(model);
}

/** `generate`: the loaded spec, resolved with `options`, written into `outDir` (`out` names it in messages). */
export async function generateOutput(
  loaded: LoadedSpec,
  options: ResolveOptions,
  outDir: string,
  out: string,
): Promise<WriteReport & { files: EmittedFile[] }> {
  return (await pipeline()).generateOutput(loaded, options, outDir, out);
}

/** `check`: whether `outDir` holds what `generateOutput` would write, and if not which files are stale. */
export async function checkOutput(loaded: LoadedSpec, options: ResolveOptions, outDir: string, out: string): Promise<CheckReport> {
  return (await pipeline()).checkOutput(loaded, options, outDir, out);
}

/** The spec file an output folder's headers name, unless it is the standard surface; undefined when none does. */
export async function generatedFromSpec(outDir: string): Promise<string | undefined> {
  return (await import('./write/write-policy.js')).generatedFromSpec(outDir);
}

/** True when nothing is at `path`. */
export async function missing(path: string): Promise<boolean> {
  return (await pipeline()).missing(path);
}

/** The classMethods manifest of a model. */
export async function manifestOf(model: Model): Promise<Required<ManifestEntry>[]> {
  return (await import('./resolve/manifest.js')).buildManifest(model);
}

/** The `reasoningEngines.create` body; a source deploy takes the packed archive as `source`. */
export async function createRequestBody(model: Model, deploy: DeployConfig, source?: SourceInput): Promise<ReasoningEngineBody> {
  return (await createRequest()).buildCreateRequest(model, deploy, source);
}

/** The create request `manifest --format …` prints, and the note a source deploy's placeholder needs. */
export async function manifestRequest(model: Model, deploy: DeployConfig): Promise<{ readonly body: ReasoningEngineBody; readonly note: string | undefined }> {
  return (await createRequest()).manifestRequest(model, deploy);
}

/** A copy of the body for printing, the archive replaced by its summary. */
export async function summariseSource(body: ReasoningEngineBody, summary: SourceSummary): Promise<ReasoningEngineBody> {
  return (await createRequest()).summariseSource(body, summary);
}

/** `--format curl|gcloud`: a shell command that posts the body. */
export async function createCommand(body: ReasoningEngineBody, deploy: DeployConfig, tokenSource: TokenSource, apiEndpoint?: string): Promise<string> {
  return (await import('./deploy/shell.js')).createCommand(body, deploy, tokenSource, apiEndpoint);
}

/** The curl commands that call each operation of a deployed resource. */
export async function queryCommand(
  resourceName: string,
  apiEndpoint: string,
  operations: readonly { readonly name: string; readonly api_mode: string }[],
): Promise<string> {
  return (await import('./deploy/shell.js')).queryCommand(resourceName, apiEndpoint, operations);
}

/** `--format terraform|terraform-json`: the body as a Terraform resource named `resourceName`. */
export async function terraform(format: 'hcl' | 'json', body: ReasoningEngineBody, deploy: DeployConfig, resourceName: string): Promise<string> {
  const { terraformHcl, terraformJson } = await import('./deploy/terraform.js');
  return (format === 'hcl' ? terraformHcl : terraformJson)(body, deploy, resourceName);
}

/** `agentgen init`'s starter spec for a project called `name`, checked as any spec is. */
export async function starterSpec(name: string): Promise<string> {
  const [{ loadAssets }, { parseSpec }] = await Promise.all([import('./assets.js'), import('./load/load-spec.js')]);
  const text = loadAssets().initSpec({ name });
  parseSpec(text, defaultSpecFile); // the starter must itself be a valid spec
  return text;
}
