/**
 * `runtime/**` for `runtime: bundle`: the runtime's modules, each its own file under the output
 * folder with a header, imported by server.ts and client.ts instead of `@agentgen/runtime`. The
 * modules import each other relatively and nothing else but `zod` (types) and `node:*` (server
 * side only), so the folder works as it is; except the pattern modules, which import `re2js`
 * (the linear-time engine) and are copied only for a spec with a `pattern`, whose validators
 * import them: a spec without one depends on nothing but zod. The UI adapters (`ui/`, which
 * import the optional peers `ai` and `@ag-ui/core`) are never copied: generated code does not
 * import them, and a bundled output must not depend on those packages.
 */
import type { Assets } from '../assets.js';
import type { EmittedFile, Model } from '../model.js';
import { subschemas } from '../resolve/check-schema.js';

/** The runtime's modules that load re2js: the `codegenv1/pattern` entry and the engine behind it. */
function isPatternModule(path: string): boolean {
  return path === 'codegenv1/pattern.ts' || path.startsWith('pattern/');
}

/** The UI adapters' modules (`@agentgen/runtime/ui/*`), left out of every bundle. */
function isUiModule(path: string): boolean {
  return path.startsWith('ui/');
}

/** Whether any schema of the model has a `pattern` (so validators.ts imports the pattern entry). */
export function usesPattern(model: Model): boolean {
  const roots = [...model.schemas.map((named) => named.schema), ...model.operations.flatMap((op) => [op.input, op.output])];
  return roots.some((root) => [...subschemas(root, [])].some(([schema]) => schema.pattern !== undefined));
}

/** How every bundled runtime file begins (templates/bundled-runtime-header.hbs): how leftovers are recognised. */
export const bundledRuntimeMarker = '// Copied by agentgen ';

export function emitBundledRuntime(model: Model, assets: Assets): EmittedFile[] {
  if (model.runtime !== 'bundle') return [];
  const runtime = assets.bundledRuntime;
  if (runtime === undefined) throw new Error('internal: the bundled runtime was not loaded for a `runtime: bundle` model');
  const header = assets.bundledRuntimeHeader({ version: model.generatorVersion, runtimeVersion: runtime.version }).trimEnd();
  if (!header.startsWith(bundledRuntimeMarker)) throw new Error('internal: the bundled runtime header lost its marker');
  const patterns = usesPattern(model);
  return runtime.modules
    .filter((module) => !isUiModule(module.path) && (patterns || !isPatternModule(module.path)))
    .map((module) => ({ path: `runtime/${module.path}`, contents: `${header}\n\n${module.text}` }));
}
