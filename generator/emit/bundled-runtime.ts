/**
 * `runtime/**` for `runtime: bundle`: the runtime's modules, each its own file under the output
 * folder with a header, imported by server.ts and client.ts instead of `@agentgen/runtime`. The
 * modules import each other relatively and nothing else but `zod` (types) and `node:*` (server
 * side only), so the folder works as it is.
 */
import type { Assets } from '../assets.js';
import type { EmittedFile, Model } from '../model.js';

/** How every bundled runtime file begins (templates/bundled-runtime-header.hbs): how leftovers are recognised. */
export const bundledRuntimeMarker = '// Copied by agentgen ';

export function emitBundledRuntime(model: Model, assets: Assets): EmittedFile[] {
  if (model.runtime !== 'bundle') return [];
  const runtime = assets.bundledRuntime;
  if (runtime === undefined) throw new Error('internal: the bundled runtime was not loaded for a `runtime: bundle` model');
  const header = assets.bundledRuntimeHeader({ version: model.generatorVersion, runtimeVersion: runtime.version }).trimEnd();
  if (!header.startsWith(bundledRuntimeMarker)) throw new Error('internal: the bundled runtime header lost its marker');
  return runtime.modules.map((module) => ({ path: `runtime/${module.path}`, contents: `${header}\n\n${module.text}` }));
}
