// The TypeScript compilers that generated code and the published types are checked with: the
// repo's pinned 5.9 (ts-morph needs its API, and the workspace builds with it) and TypeScript 7,
// the native compiler that `npm install -D typescript` installs since 2026, which is what users
// type-check their projects with. TypeScript 7 is the root devDependency alias `typescript-7`
// (`npm:typescript@7.0.2`). Plain JS, so bench/typecheck-scale.mjs uses it as the tests do.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));

/** @type {ReadonlyArray<{ name: string, packageDir: string, major: number }>} */
export const compilers = [
  { name: 'tsc 5.9', packageDir: 'node_modules/typescript', major: 5 },
  { name: 'tsc 7', packageDir: 'node_modules/typescript-7', major: 7 },
];

/**
 * The command that runs a compiler: 5.9's CLI under this node (so that `--max-old-space-size`
 * caps its heap), 7's native executable itself, found by TypeScript 7's own launcher code, so that
 * a timeout kills tsc and not only a wrapper around it. Throws, saying what to install, when the
 * package is missing or is not the expected major version.
 */
export async function tscCommand(compiler, { heapMb } = {}) {
  const dir = join(root, compiler.packageDir);
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) {
    throw new Error(
      `${compiler.name}: ${compiler.packageDir} is missing; run npm ci (the root devDependencies pin "typescript": "5.9" and "typescript-7": "npm:typescript@7.0.2")`,
    );
  }
  const { version, bin } = JSON.parse(readFileSync(manifest, 'utf8'));
  if (Number(version.split('.')[0]) !== compiler.major) {
    throw new Error(`${compiler.name}: ${compiler.packageDir} holds typescript ${version}, expected ${compiler.major}.x; run npm ci`);
  }
  if (compiler.major >= 7) {
    const { default: getExePath } = await import(pathToFileURL(join(dir, 'lib/getExePath.js')).href);
    return { version, file: getExePath(), args: [] };
  }
  const heap = heapMb === undefined ? [] : [`--max-old-space-size=${heapMb}`];
  return { version, file: process.execPath, args: [...heap, join(dir, typeof bin === 'string' ? bin : bin.tsc)] };
}

/**
 * Runs a compiler to completion (killed after `timeoutMs`); `output` is stdout and stderr together.
 * `heapMb` caps 5.9's heap; TypeScript 7 (Go) has no such cap: its memory is read from
 * `--extendedDiagnostics` instead (see tscMemoryMb).
 */
export async function runTsc(compiler, args, { timeoutMs, heapMb, cwd = root }) {
  const command = await tscCommand(compiler, { heapMb });
  const run = spawnSync(command.file, [...command.args, ...args], { cwd, encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 << 20 });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  const timedOut = run.error?.code === 'ETIMEDOUT' || run.signal === 'SIGKILL';
  return { version: command.version, status: run.status, timedOut, output: timedOut ? `${compiler.name} timed out after ${timeoutMs} ms\n${output}` : output };
}

/** tsc's own "Memory used" of an `--extendedDiagnostics` run, in MB (both compilers print it). */
export function tscMemoryMb(output) {
  const kb = /Memory used:\s+(\d+)K/.exec(output)?.[1];
  return kb === undefined ? Number.NaN : Number(kb) / 1024;
}

/** The `error TS…` lines of a run's output. */
export function tscErrors(output) {
  return output.split('\n').filter((line) => /error TS\d+/.test(line));
}
