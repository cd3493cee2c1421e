/**
 * What `generate` may do to an output folder and what `check` calls stale: the policy over the
 * plain reads and writes of `write-output.ts`. A file is replaced only when agentgen wrote it
 * (its header, or for package.json its marker), so a foreign file is refused, never overwritten;
 * a file an earlier run wrote and this one does not emit is retired (removed by `generate`, left
 * over for `check`); a bundled runtime's file the output no longer has is left over the same way.
 */
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { bundledRuntimeMarker } from '../emit/bundled-runtime.js';
import { headerSource } from '../emit/header.js';
import { isAgentgenPackageJson, packageJsonPath } from '../emit/package-json.js';
import { noSpecSource } from '../load/spec-defaults.js';
import type { EmittedFile } from '../model.js';
import {
  type FileStatus,
  foreignFiles,
  leftoverRuntimeFiles,
  removeLeftovers,
  retiredFiles,
  type StaleReason,
  staleFiles,
  writeOutput,
} from './write-output.js';

/** What `generate` did to each file, and the leftovers it removed (paths relative to the folder). */
export interface WriteReport {
  readonly results: readonly { readonly path: string; readonly status: FileStatus }[];
  readonly removed: readonly string[];
}

/** A file `check` finds out of date, and why. */
export interface StaleFile {
  readonly path: string;
  readonly reason: StaleReason;
}

/**
 * Writes what changed of `files` into `outDir`, then removes the retired and left-over files.
 * Refuses (before writing anything) when the folder's package.json is not agentgen's; `out` is
 * the folder as the user named it, for the message.
 */
export async function writeEmitted(outDir: string, out: string, files: readonly EmittedFile[]): Promise<WriteReport> {
  await refuseForeignPackageJson(outDir, out, files);
  const results = await writeOutput(outDir, files);
  const removed = await leftoverFiles(outDir, files);
  await removeLeftovers(outDir, removed);
  return { results, removed };
}

/** The files of `outDir` that are out of date against `files`: missing, different, or left over. */
export async function staleEmitted(outDir: string, out: string, files: readonly EmittedFile[]): Promise<StaleFile[]> {
  await refuseForeignPackageJson(outDir, out, files);
  const leftovers = await leftoverFiles(outDir, files);
  return [...(await staleFiles(outDir, files)), ...leftovers.map((path) => ({ path, reason: 'left over' as const }))];
}

/** Files agentgen wrote into `outDir` that an output of `paths` does not hold: retired ones, then a bundled runtime's. */
export async function leftoverFiles(outDir: string, paths: readonly { readonly path: string }[]): Promise<string[]> {
  return [...(await retiredFiles(outDir, writtenByAgentgen, paths)), ...(await leftoverRuntimeFiles(outDir, paths, bundledRuntimeMarker))];
}

/**
 * The output's package.json makes its folder ES modules; a package.json there that agentgen did not
 * write is a project's own (`--out .`, or a package's folder) and is never replaced.
 */
async function refuseForeignPackageJson(outDir: string, out: string, files: readonly EmittedFile[]): Promise<void> {
  const foreign = await foreignFiles(
    outDir,
    files.filter((file) => file.path === packageJsonPath),
    isAgentgenPackageJson,
  );
  if (foreign.length === 0) return;
  throw new Error(
    `${out}/${packageJsonPath} is not one agentgen wrote, and the output writes its own there (it makes the folder's files ES modules); ` +
      `not replacing it. Generate into a folder that holds only agentgen's output (the default --out generated).`,
  );
}

/**
 * The spec file that the generated files in `outDir` name in their headers (see
 * `templates/header.hbs`), when it is not the standard surface; undefined when none does (no
 * folder, no generated file, or the standard surface).
 */
export async function generatedFromSpec(outDir: string): Promise<string | undefined> {
  const entries = await readdir(outDir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const firstLine = await readFirstLine(join(outDir, entry.name));
    const source = headerSource(firstLine);
    if (source !== undefined && source !== noSpecSource) return source;
  }
  return undefined;
}

/** A file whose first line is agentgen's header. */
const writtenByAgentgen = (text: string): boolean => headerSource(text.split('\n', 1)[0]!) !== undefined;

/** The first line of a file (read up to 1 KiB), or '' when it cannot be read. */
async function readFirstLine(path: string): Promise<string> {
  const file = await open(path).catch(() => undefined);
  if (file === undefined) return '';
  try {
    const { buffer, bytesRead } = await file.read({ buffer: Buffer.alloc(1024), position: 0 });
    return buffer.subarray(0, bytesRead).toString('utf8').split('\n', 1)[0]!;
  } catch {
    return '';
  } finally {
    await file.close();
  }
}
