/**
 * What `generate` last wrote into an output folder, so that `check` can tell that nothing changed
 * without printing the output again (printing loads ts-morph, most of a check's time).
 *
 * After `generate` writes a folder (or a `check` that printed finds it current), a record is kept
 * outside the folder, in the OS temp folder under the user's id, one per output folder: a key and
 * the sha256 of every file's bytes. The key is the sha256 of everything the output is a function
 * of: the whole model (the spec as resolved, with the options, the spec's source and the generator
 * version) and the generator itself (its code, its templates, and the versions of the printer and
 * template engine it loads). Emit is pure (`emit/emit-all.ts`: same model and assets, same bytes),
 * so when the key is the current one and every file on disk has the recorded digest, the folder
 * holds exactly what emit would give. Anything else (no record, another key, a missing or edited
 * file, an unreadable record) proves nothing, and `check` prints the output and compares bytes as
 * before. A `runtime: bundle` output is never vouched for this way: it copies the runtime
 * package's sources, which are not part of the key.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EmittedFile, Model } from '../model.js';
import { templatesDir } from '../templates-dir.js';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

interface OutputRecord {
  readonly key: string;
  /** Path (relative to the output folder) → sha256 of its bytes, in path order. */
  readonly files: Readonly<Record<string, string>>;
}

/** The folder of records: per user, since the OS temp folder may be shared. */
function recordsDir(): string {
  let user: string;
  try {
    user = String(process.getuid?.() ?? userInfo().username);
  } catch {
    user = 'user';
  }
  return join(tmpdir(), `agentgen-${user}`, 'output-records');
}

/** Where the record of `outDir` (an absolute path) is kept. */
export const outputRecordPath = (outDir: string) => join(recordsDir(), `${sha256(outDir).slice(0, 32)}.json`);

/** Declarations and source maps do not change what the code does. */
const inert = /\.(?:d\.[cm]?ts|map|tsbuildinfo)$/;

/** Every file under `dir` (recursively) but declarations and maps, as `relative path\0sha256` lines in path order. */
export async function treeDigest(dir: string): Promise<string> {
  const entries = ((await readdir(dir, { recursive: true, withFileTypes: true })) as import('node:fs').Dirent[]).filter(
    (entry) => entry.isFile() && !inert.test(entry.name),
  );
  const paths = entries.map((entry) => join(entry.parentPath ?? entry.path, entry.name)).sort();
  const digests = await Promise.all(paths.map(async (path) => `${path.slice(dir.length)}\0${sha256(await readFile(path))}`));
  return digests.join('\n');
}

/** The package.json of `name`, as this module resolves it (without loading the package). */
async function packageManifest(name: string, from: string): Promise<string> {
  let dir = dirname(createRequire(from).resolve(name));
  for (;;) {
    const text = await readFile(join(dir, 'package.json'), 'utf8').catch(() => undefined);
    if (text !== undefined && (JSON.parse(text) as { name?: string }).name === name) return text;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`agentgen: cannot find ${name}'s package.json`);
    dir = parent;
  }
}

let generatorDigest: Promise<string> | undefined;

/**
 * The generator as it is installed: its code and the contract's (the standard surface, the
 * contract/), its templates, the runtime package's code (the generator and the contract import
 * names and routes from it), and the versions of the printer and template engine it loads.
 */
function generatorIdentity(): Promise<string> {
  generatorDigest ??= (async () => {
    const generatorDir = dirname(dirname(fileURLToPath(import.meta.url)));
    const require = createRequire(import.meta.url);
    const runtimeManifest = require.resolve('@agentgen/runtime/package.json');
    const parts = await Promise.all([
      treeDigest(generatorDir),
      treeDigest(join(dirname(generatorDir), 'contract')),
      treeDigest(templatesDir()),
      readFile(runtimeManifest, 'utf8'),
      treeDigest(dirname(require.resolve('@agentgen/runtime'))),
      packageManifest('ts-morph', import.meta.url),
      packageManifest('@ts-morph/common', require.resolve('ts-morph')),
      packageManifest('handlebars', import.meta.url),
    ]);
    return sha256(parts.join('\n\0\n'));
  })();
  return generatorDigest;
}

/**
 * Starts digesting the generator, so that its reads overlap the work before `recordOutput` (the
 * emit, which loads ts-morph). Never fails: `recordOutput` meets any error again and ignores it.
 */
export function prepareOutputRecord(): void {
  generatorIdentity().catch(() => undefined);
}

/**
 * Whether `path` is this user's and nobody else may write it: the OS temp folder is shared, and a
 * record planted by another user must never vouch for a stale folder.
 */
async function ownedByUs(path: string): Promise<boolean> {
  const info = await lstat(path);
  if (info.isSymbolicLink() || (info.mode & 0o022) !== 0) return false;
  return process.getuid === undefined || info.uid === process.getuid();
}

/** The key of a model's output: undefined for `runtime: bundle`, which this record does not cover. */
async function outputKey(model: Model): Promise<string | undefined> {
  if (model.runtime === 'bundle') return undefined;
  return sha256(`${await generatorIdentity()}\n${JSON.stringify(model)}`);
}

/**
 * Records what was just written into (or found current in) `outDir`: `files` are the emitted
 * files, byte for byte on disk. Best effort: a record that cannot be written only means the next
 * `check` prints.
 */
export async function recordOutput(outDir: string, model: Model, files: readonly EmittedFile[]): Promise<void> {
  try {
    const key = await outputKey(model);
    if (key === undefined) return;
    const record: OutputRecord = { key, files: Object.fromEntries(files.map((file) => [file.path, sha256(Buffer.from(file.contents, 'utf8'))])) };
    const path = outputRecordPath(outDir);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(record)}\n`, { mode: 0o600 });
    await rename(temporary, path);
  } catch {
    // The record only saves time.
  }
}

/**
 * The paths of the output for `model`, when the record of `outDir` vouches that every one of
 * them is on disk exactly as emit would write it; undefined when it cannot say so.
 */
export async function recordedOutput(outDir: string, model: Model): Promise<string[] | undefined> {
  try {
    const key = await outputKey(model);
    if (key === undefined) return undefined;
    const path = outputRecordPath(outDir);
    if (!(await ownedByUs(dirname(path))) || !(await ownedByUs(path))) return undefined;
    const record = JSON.parse(await readFile(path, 'utf8')) as OutputRecord;
    if (record.key !== key || typeof record.files !== 'object' || record.files === null) return undefined;
    const recorded = Object.entries(record.files);
    if (recorded.length === 0) return undefined;
    const same = await Promise.all(recorded.map(async ([path, digest]) => sha256(await readFile(join(outDir, path))) === digest));
    return same.every(Boolean) ? recorded.map(([path]) => path) : undefined;
  } catch {
    return undefined;
  }
}
