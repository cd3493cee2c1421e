/**
 * `package.json` of the output folder: `{"type": "module"}`, so that the generated files are ES
 * modules in any project. Without it, a project that `npm init -y` (npm 11: `"type": "commonjs"`)
 * and `tsc --init` (TypeScript 5.9: `module: nodenext`, `verbatimModuleSyntax`) made treats them
 * as CommonJS, and `tsc` refuses their `import`s (TS1295). With it, under NodeNext TypeScript and
 * Node both see the folder as ESM, and a CommonJS file of the project `require()`s it (Node 20.19
 * and 22.12 load ES modules from `require`; TypeScript 5.8+ allows it under `module: nodenext`).
 *
 * Chosen over `.mts` files (emitted as `.mjs`): file names and import paths (`./generated/index.js`)
 * stay what ESM and Bundler-resolution projects already import (a Bundler project cannot import
 * `.mts` without its extension), nothing is renamed (so no file is retired), and the one file also
 * covers `runtime: bundle`'s copy under `runtime/`. Bundler resolution ignores `type` (the files
 * are ESM either way). The limit: `tsc` does not copy this file into an `outDir`, so a CommonJS
 * project that compiles into one must copy it there too (or be `"type": "module"`).
 *
 * The `//` note says who wrote the file: `agentgen generate` replaces only a package.json with it,
 * never a project's own (see `isAgentgenPackageJson`).
 */
import type { EmittedFile } from '../model.js';

export const packageJsonPath = 'package.json';

const note = 'Written by agentgen (@agentgen/cli): the generated files are ES modules, also in a CommonJS project. Do not edit.';

export function emitPackageJson(): EmittedFile {
  return { path: packageJsonPath, contents: `${JSON.stringify({ '//': note, type: 'module' }, null, 2)}\n` };
}

/** Whether a package.json's text is one that agentgen wrote (this version or another): its `//` note names agentgen. */
export function isAgentgenPackageJson(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  const written = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['//'] : undefined;
  return typeof written === 'string' && written.startsWith('Written by agentgen ');
}
