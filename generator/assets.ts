/**
 * The generator's own files: handlebars templates and, for `runtime: bundle`, the runtime's
 * modules (the TypeScript sources that `@agentgen/runtime` ships). Read here, once, so that
 * emitters stay pure functions of (model, assets).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Handlebars from 'handlebars';
import { lineComment } from './schema/escape.js';
import { templatesDir } from './templates-dir.js';

export interface HeaderData {
  readonly name: string;
  readonly version: string;
  readonly source: string;
  readonly hash: string;
}

/** One module of the runtime, by its path under the package's `src/`, e.g. `server/errors.ts`. */
export interface RuntimeModule {
  readonly path: string;
  readonly text: string;
}

export interface BundledRuntime {
  /** The version of `@agentgen/runtime` the modules come from. */
  readonly version: string;
  readonly modules: readonly RuntimeModule[];
}

export interface Assets {
  readonly header: (data: HeaderData) => string;
  readonly bundledRuntimeHeader: (data: { version: string; runtimeVersion: string }) => string;
  /** The header of the runtime's contract module, which agentgen writes into its own runtime package. */
  readonly runtimeContractHeader: (data: { version: string }) => string;
  readonly initSpec: (data: { name: string }) => string;
  /** Present when loaded with `bundledRuntime: true`. */
  readonly bundledRuntime: BundledRuntime | undefined;
}

const helpers = {
  lineComment,
  /** A YAML double-quoted scalar: JSON strings are valid YAML. */
  yamlString: (value: string) => JSON.stringify(value),
};

function compile<T>(source: string): (data: T) => string {
  const hb = Handlebars.create();
  for (const [name, fn] of Object.entries(helpers)) hb.registerHelper(name, fn);
  const knownHelpers = Object.fromEntries(Object.keys(helpers).map((name) => [name, true]));
  return hb.compile<T>(source, { noEscape: true, strict: true, knownHelpersOnly: true, knownHelpers });
}

/** The runtime package this generator depends on, with the TypeScript sources it ships in `src/`. */
function readBundledRuntime(): BundledRuntime {
  const manifestPath = createRequire(import.meta.url).resolve('@agentgen/runtime/package.json');
  const root = dirname(manifestPath);
  const { version } = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string };
  const src = join(root, 'src');
  if (!existsSync(src)) throw new Error(`agentgen: ${src} is missing; @agentgen/runtime is installed without its sources`);
  const modules = (readdirSync(src, { recursive: true, encoding: 'utf8' }) as string[])
    .map((path) => path.split('\\').join('/'))
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))
    .sort()
    .map((path) => ({ path, text: readFileSync(join(src, path), 'utf8') }));
  return { version, modules };
}

let templates: Omit<Assets, 'bundledRuntime'> | undefined;
let bundled: BundledRuntime | undefined;

export function loadAssets(options: { bundledRuntime?: boolean } = {}): Assets {
  if (templates === undefined) {
    const dir = templatesDir();
    const read = (path: string) => readFileSync(join(dir, path), 'utf8');
    templates = {
      header: compile(read('header.hbs')),
      bundledRuntimeHeader: compile(read('bundled-runtime-header.hbs')),
      runtimeContractHeader: compile(read('runtime-contract-header.hbs')),
      initSpec: compile(read('agentgen.yaml.hbs')),
    };
  }
  if (options.bundledRuntime === true) bundled ??= readBundledRuntime();
  return { ...templates, bundledRuntime: options.bundledRuntime === true ? bundled : undefined };
}
