/**
 * Write: the only place the generator touches the output folder. Writes only files whose bytes
 * changed (atomically, through a temporary file), or, for `check`, only reads and compares.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { EmittedFile } from '../model.js';

export type FileStatus = 'written' | 'unchanged';
export type StaleReason = 'missing' | 'different' | 'left over';

async function current(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export async function writeOutput(outDir: string, files: readonly EmittedFile[]): Promise<{ path: string; status: FileStatus }[]> {
  // The files are independent: they are read, compared and written concurrently.
  return Promise.all(
    files.map(async (file) => {
      const target = join(outDir, file.path);
      if ((await current(target)) === file.contents) return { path: file.path, status: 'unchanged' as const };
      await mkdir(dirname(target), { recursive: true });
      const temporary = `${target}.${process.pid}.tmp`;
      await writeFile(temporary, file.contents, 'utf8');
      await rename(temporary, target);
      return { path: file.path, status: 'written' as const };
    }),
  );
}

export async function staleFiles(outDir: string, files: readonly EmittedFile[]): Promise<{ path: string; reason: StaleReason }[]> {
  const existing = await Promise.all(files.map((file) => current(join(outDir, file.path))));
  const stale: { path: string; reason: StaleReason }[] = [];
  files.forEach((file, index) => {
    const text = existing[index];
    if (text === undefined) stale.push({ path: file.path, reason: 'missing' });
    else if (text !== file.contents) stale.push({ path: file.path, reason: 'different' });
  });
  return stale;
}

/**
 * The paths of `files` whose target holds a file that differs from what is emitted and that
 * `writtenByAgentgen` does not claim: writing would replace a file of the user's.
 */
export async function foreignFiles(outDir: string, files: readonly EmittedFile[], writtenByAgentgen: (text: string) => boolean): Promise<string[]> {
  const texts = await Promise.all(files.map((file) => current(join(outDir, file.path))));
  return files
    .filter((file, index) => texts[index] !== undefined && texts[index] !== file.contents && !writtenByAgentgen(texts[index]))
    .map((file) => file.path);
}

/**
 * Files under `runtime/` that an earlier `runtime: bundle` wrote (they start with `marker`) and
 * this output no longer has: all of them after a switch to `runtime: package`. Paths relative to
 * `outDir`, sorted. Files without the marker are the user's and are never listed.
 */
export async function leftoverRuntimeFiles(outDir: string, files: readonly { path: string }[], marker: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = (await readdir(join(outDir, 'runtime'), { recursive: true, encoding: 'utf8' })) as string[];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const emitted = new Set(files.map((file) => file.path));
  const candidates = entries.map((entry) => `runtime/${entry.split('\\').join('/')}`).filter((path) => path.endsWith('.ts') && !emitted.has(path));
  const texts = await Promise.all(candidates.map((path) => current(join(outDir, path)).catch(() => undefined)));
  return candidates.filter((_path, index) => texts[index]?.startsWith(marker) === true).sort();
}

/**
 * Files that an earlier run wrote into the output folder and this one does not emit
 * (`client-validators.ts`: the client imports `validators.ts` now; `ui.ts`, once the spec no
 * longer asks for `ui`), listed when `writtenByAgentgen` says so of their text. A file of that
 * name the user wrote is never listed.
 */
export async function retiredFiles(outDir: string, writtenByAgentgen: (text: string) => boolean, files: readonly { path: string }[]): Promise<string[]> {
  const emitted = new Set(files.map((file) => file.path));
  const paths = retiredPaths.filter((path) => !emitted.has(path));
  const texts = await Promise.all(paths.map((path) => current(join(outDir, path)).catch(() => undefined)));
  return paths.filter((_path, index) => texts[index] !== undefined && writtenByAgentgen(texts[index]));
}

const retiredPaths: readonly string[] = ['client-validators.ts', 'ui.ts'];

/** Deletes the given leftover files; the `runtime/` folder too when nothing else is left in it. */
export async function removeLeftovers(outDir: string, paths: readonly string[]): Promise<void> {
  await Promise.all(paths.map((path) => rm(join(outDir, path), { force: true })));
  if (paths.length === 0) return;
  // Empty folders go, deepest first; a folder that still holds a file of the user's stays.
  const folders = [...new Set(paths.filter((path) => path.includes('/')).map((path) => path.slice(0, path.lastIndexOf('/'))))].sort(
    (a, b) => b.length - a.length,
  );
  for (const folder of folders) {
    for (let dir = folder; dir.startsWith('runtime'); dir = dir.slice(0, Math.max(dir.lastIndexOf('/'), 0))) {
      const left = await readdir(join(outDir, dir)).catch(() => undefined);
      if (left === undefined || left.length > 0) break;
      await rm(join(outDir, dir), { recursive: true, force: true });
      if (!dir.includes('/')) break;
    }
  }
}
