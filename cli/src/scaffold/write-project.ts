/**
 * Write: the only place a new project touches the disk. A folder that holds anything (other than
 * `.git`) is refused unless `force`; with `force` the scaffold's files replace those of the same
 * name and every other file is left alone.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { EmittedFile } from '../../../generator/index.js';

/** Entries of `dir` that make it "not empty" (sorted); [] when it is missing or empty. */
export async function occupyingEntries(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((entry) => entry !== '.git').sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

export async function writeProject(dir: string, files: readonly EmittedFile[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const file of files) {
    const target = join(dir, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.contents, 'utf8');
  }
}
