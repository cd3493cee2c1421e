/**
 * The default of `--import-extension` (and of the spec's `import_extension`): how the project
 * that holds the output resolves imports, as the tsconfig nearest above the output folder says.
 * A project whose TypeScript resolves like a bundler (`moduleResolution: bundler`, or `module:
 * preserve`, which implies it: what `create-next-app` and Vite's templates write) gets relative
 * imports without an extension, which every bundler resolves with no configuration (Next.js's
 * Turbopack does not map `./validators.js` to `validators.ts`: vercel/next.js#82945); any other
 * project, or none, gets `.js`, which Node's ES modules and NodeNext need. The same project always
 * gives the same answer, so `agentgen check` in CI agrees with `agentgen generate` on a laptop.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, parse } from 'node:path';
import { type ImportExtension, tsMorph } from '../../generator/index.js';

interface ResolutionOptions {
  module?: string;
  moduleResolution?: string;
}

/** The tsconfig.json in `dir` or the nearest folder above it; undefined when there is none. */
export function nearestTsconfig(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const file = join(at, 'tsconfig.json');
    if (existsSync(file)) return file;
    if (at === parse(at).root) return undefined;
  }
}

/** The file an `extends` entry names: a path relative to `from`'s folder, or a package's (`@tsconfig/next`); undefined when not found. */
function extendedFile(from: string, entry: string): string | undefined {
  const candidates = entry.endsWith('.json') ? [entry] : [entry, `${entry}.json`, `${entry}/tsconfig.json`];
  for (const candidate of candidates) {
    if (candidate.startsWith('.') || isAbsolute(candidate)) {
      const file = isAbsolute(candidate) ? candidate : join(dirname(from), candidate);
      if (existsSync(file)) return file;
      continue;
    }
    try {
      return createRequire(from).resolve(candidate);
    } catch {
      // not this spelling
    }
  }
  return undefined;
}

/** `module` and `moduleResolution` as `file` and what it extends set them (its own win); unreadable files give nothing. */
function resolutionOptions(file: string, depth = 0): ResolutionOptions {
  if (depth > 16) return {};
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  // TypeScript's own reader: tsconfig files hold comments and trailing commas.
  const { config } = tsMorph().ts.parseConfigFileTextToJson(file, text) as { config?: { extends?: unknown; compilerOptions?: Record<string, unknown> } };
  const bases = typeof config?.extends === 'string' ? [config.extends] : Array.isArray(config?.extends) ? config.extends : [];
  let options: ResolutionOptions = {};
  for (const base of bases) {
    const baseFile = typeof base === 'string' ? extendedFile(file, base) : undefined;
    if (baseFile !== undefined) options = { ...options, ...resolutionOptions(baseFile, depth + 1) };
  }
  const own = config?.compilerOptions ?? {};
  if (typeof own['module'] === 'string') options.module = own['module'];
  if (typeof own['moduleResolution'] === 'string') options.moduleResolution = own['moduleResolution'];
  return options;
}

/** How the output in `outDir` should write its relative imports, and the tsconfig that decided it (undefined: none found). */
export function importExtensionFor(outDir: string): { extension: ImportExtension; tsconfig: string | undefined } {
  const tsconfig = nearestTsconfig(outDir);
  if (tsconfig === undefined) return { extension: 'js', tsconfig };
  const { module, moduleResolution } = resolutionOptions(tsconfig);
  const bundler = moduleResolution?.toLowerCase() === 'bundler' || (moduleResolution === undefined && module?.toLowerCase() === 'preserve');
  return { extension: bundler ? 'none' : 'js', tsconfig };
}
