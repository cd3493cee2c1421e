/**
 * Write: the only place the generator touches the output folder. Writes only files whose bytes
 * changed (atomically, through a temporary file), or, for `check`, only compares.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { EmittedFile } from '../model.js';

export type FileStatus = 'written' | 'unchanged';
export type StaleReason = 'missing' | 'different';

async function current(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export async function writeOutput(outDir: string, files: readonly EmittedFile[]): Promise<{ path: string; status: FileStatus }[]> {
  const results: { path: string; status: FileStatus }[] = [];
  for (const file of files) {
    const target = join(outDir, file.path);
    if ((await current(target)) === file.contents) {
      results.push({ path: file.path, status: 'unchanged' });
      continue;
    }
    await mkdir(dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.tmp`;
    await writeFile(temporary, file.contents, 'utf8');
    await rename(temporary, target);
    results.push({ path: file.path, status: 'written' });
  }
  return results;
}

export async function staleFiles(outDir: string, files: readonly EmittedFile[]): Promise<{ path: string; reason: StaleReason }[]> {
  const stale: { path: string; reason: StaleReason }[] = [];
  for (const file of files) {
    const existing = await current(join(outDir, file.path));
    if (existing === undefined) stale.push({ path: file.path, reason: 'missing' });
    else if (existing !== file.contents) stale.push({ path: file.path, reason: 'different' });
  }
  return stale;
}
