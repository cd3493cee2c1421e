/**
 * The project packed for a deploy from source: the .tar.gz that
 * `spec.sourceCodeSpec.inlineSource.sourceArchive` carries (bytes, so base64 in the JSON body;
 * reasoning_engine.proto, v1beta1), which the platform builds with the project's Dockerfile
 * (`imageSpec`). Google's own tools send the same: adk-go's `adkgo deploy agentengine` packs the
 * project with `tar -czf --exclude=.git`, python-aiplatform's `_set_source_code_spec` a tar.gz.
 *
 * What goes in: every regular file but those the ignore file leaves out
 * (source-archive-ignore-file.ts) and those never sent (source-archive-secrets.ts). Symbolic links
 * are not followed. The bytes depend on the files' paths, contents and executable bits only
 * (source-archive-tar.ts), so the same tree packs to the same digest on the same Node.js.
 */
import { createHash } from 'node:crypto';
import { lstat, readFile, readdir, readlink, realpath } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { SourceArchiveError } from './source-archive-error.js';
import { loadIgnoreRules, type IgnoreRules } from './source-archive-ignore-file.js';
import { alwaysSkippedNames, secretReason } from './source-archive-secrets.js';
import { tarArchive, type TarEntry } from './source-archive-tar.js';

export { SourceArchiveError } from './source-archive-error.js';

export interface SourceArchive {
  /** A .tar.gz (gzip of a POSIX tar) of the project, Dockerfile at its root. */
  readonly archive: Buffer;
  /** The files packed, '/'-separated, sorted. */
  readonly files: readonly string[];
  /** archive.length. */
  readonly bytes: number;
  /** The archive's SHA-256, hex. */
  readonly sha256: string;
  /**
   * Files agentgen's own rules kept out (secret-looking names, symbolic links inside the project,
   * sockets and the like), each with why, for the plan and --dry-run to say; not the files the
   * ignore file leaves out, nor node_modules/ and .git/.
   */
  readonly leftOut: readonly { readonly path: string; readonly why: string }[];
}

/**
 * agentgen's cap on the compressed archive. The API reference publishes no limit for inline source;
 * 8 MiB keeps the request body, which carries the archive in base64, near 11 MiB.
 */
export const inlineSourceLimitBytes = 8 * 1024 * 1024;

/** More files than this is a folder that should have been left out (build output, a vendored tree). */
export const sourceFileLimit = 20_000;

/**
 * Past this many bytes of files the archive is not built at all: sources rarely compress 32 to 1,
 * and reading more than this into memory only to refuse it would be a waste.
 */
const uncompressedLimitBytes = 32 * inlineSourceLimitBytes;

interface FoundFile {
  readonly path: string;
  readonly size: number;
  readonly executable: boolean;
}

interface Walked {
  readonly files: FoundFile[];
  readonly leftOut: { path: string; why: string }[];
}

function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Where to leave files out, as the message says it: the project's ignore file, or a new .gcloudignore. */
function ignoreFileAdvice(rules: IgnoreRules): string {
  return rules.file ?? '.gcloudignore (gitignore syntax)';
}

function fsError(action: string, path: string, error: unknown): SourceArchiveError {
  return new SourceArchiveError(`cannot ${action} ${path === '' ? 'the project folder' : path}: ${(error as NodeJS.ErrnoException).code ?? 'unknown error'}`);
}

async function walk(root: string, rules: IgnoreRules): Promise<Walked> {
  const files: FoundFile[] = [];
  const leftOut: { path: string; why: string }[] = [];
  const folders = [''];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let entries;
    try {
      entries = await readdir(join(root, folder), { withFileTypes: true });
    } catch (error) {
      throw fsError('read the folder', folder, error);
    }
    for (const entry of entries) {
      if (alwaysSkippedNames.has(entry.name)) continue;
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      const absolute = join(root, path);
      if (entry.isDirectory()) {
        if (!rules.skipsFolder(path)) folders.push(path);
        continue;
      }
      if (rules.ignores(path, false)) continue;
      const secret = secretReason(entry.name);
      if (secret !== undefined) {
        leftOut.push({ path, why: secret });
      } else if (entry.isSymbolicLink()) {
        let target: string;
        try {
          target = resolve(dirname(absolute), await readlink(absolute));
        } catch (error) {
          throw fsError('read the symbolic link', path, error);
        }
        if (target !== root && !target.startsWith(root + sep)) {
          throw new SourceArchiveError(
            `${path} is a symbolic link to a path outside the project; a deploy from source packs only the project's own files: ` +
              `copy the file in, or leave the link out in ${ignoreFileAdvice(rules)}`,
          );
        }
        leftOut.push({ path, why: 'a symbolic link: the archive holds regular files and folders only (the link is not followed)' });
      } else if (!entry.isFile()) {
        leftOut.push({ path, why: 'not a regular file (a socket, FIFO or device)' });
      } else {
        let stats;
        try {
          stats = await lstat(absolute);
        } catch (error) {
          throw fsError('read', path, error);
        }
        files.push({ path, size: stats.size, executable: (stats.mode & 0o111) !== 0 });
        if (files.length > sourceFileLimit) {
          throw new SourceArchiveError(
            `the project has more than ${sourceFileLimit.toLocaleString('en-US')} files to pack; a deploy from source takes the project's sources, not ` +
              `build output or vendored trees: leave those folders out in ${ignoreFileAdvice(rules)}, or build and push an image and set deploy.image`,
          );
        }
      }
    }
  }
  return { files, leftOut };
}

/** The Dockerfile is what the platform builds (imageSpec): it must be at the root and packed. */
async function checkDockerfile(root: string, rules: IgnoreRules, files: readonly FoundFile[]): Promise<void> {
  if (files.some((file) => file.path === 'Dockerfile')) return;
  const why = 'the platform builds the project from its Dockerfile (imageSpec)';
  const orImage = 'or build and push an image and set deploy.image';
  let stats;
  try {
    stats = await lstat(join(root, 'Dockerfile'));
  } catch {
    throw new SourceArchiveError(`${why}, and the project has none at its root (${root}); add one, ${orImage}`);
  }
  if (!stats.isFile()) throw new SourceArchiveError(`${why}, and the project's Dockerfile is not a regular file (a symbolic link?); make it one, ${orImage}`);
  throw new SourceArchiveError(`${why}, but ${rules.file ?? 'the ignore file'} leaves the Dockerfile out; remove the line that matches it, ${orImage}`);
}

function tooLarge(what: string, files: readonly FoundFile[], rules: IgnoreRules): SourceArchiveError {
  const largest = [...files]
    .sort((a, b) => b.size - a.size || byPath(a.path, b.path))
    .slice(0, 5)
    .map((file) => `  ${file.path} (${formatBytes(file.size)})`);
  return new SourceArchiveError(
    `${what}, over agentgen's limit of ${formatBytes(inlineSourceLimitBytes)} for a deploy from source ` +
      `(the API publishes no limit; the request carries the archive in base64). The largest files packed:\n${largest.join('\n')}\n` +
      `Leave out what the build does not need in ${ignoreFileAdvice(rules)}, or build and push an image and set deploy.image to deploy it instead.`,
  );
}

async function readFiles(root: string, files: readonly FoundFile[]): Promise<TarEntry[]> {
  const folders = new Set<string>();
  const entries: { key: string; entry: TarEntry }[] = [];
  for (const file of files) {
    let data: Buffer;
    try {
      data = await readFile(join(root, file.path));
    } catch (error) {
      throw fsError('read', file.path, error);
    }
    entries.push({ key: file.path, entry: { type: 'file', path: file.path, data, executable: file.executable } });
    for (let slash = file.path.indexOf('/'); slash >= 0; slash = file.path.indexOf('/', slash + 1)) folders.add(file.path.slice(0, slash));
  }
  // A folder's entry sorts before its contents ("a/" before "a/b"), so tar creates it first.
  for (const folder of folders) entries.push({ key: `${folder}/`, entry: { type: 'directory', path: folder } });
  return entries.sort((a, b) => byPath(a.key, b.key)).map(({ entry }) => entry);
}

export async function packSource(projectDir: string): Promise<SourceArchive> {
  let root: string;
  try {
    root = await realpath(projectDir);
    if (!(await lstat(root)).isDirectory()) throw new SourceArchiveError(`${projectDir} is not a folder`);
  } catch (error) {
    if (error instanceof SourceArchiveError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new SourceArchiveError(`the project folder ${projectDir} does not exist`);
    throw fsError('open', projectDir, error);
  }
  const rules = await loadIgnoreRules(root);
  const { files, leftOut } = await walk(root, rules);
  await checkDockerfile(root, rules, files);
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > uncompressedLimitBytes) throw tooLarge(`the files to pack add up to ${formatBytes(total)} before compression`, files, rules);
  const tar = tarArchive(await readFiles(root, files));
  const archive = gzipSync(tar, { level: 9 });
  // gzip's header names the OS that wrote it (byte 9; zlib fixes it per platform): 3, Unix, always,
  // so that the digest does not depend on where agentgen ran. The header has no CRC to update.
  archive[9] = 3;
  if (archive.length > inlineSourceLimitBytes) throw tooLarge(`the packed source is ${formatBytes(archive.length)} compressed`, files, rules);
  return {
    archive,
    files: files.map((file) => file.path).sort(byPath),
    bytes: archive.length,
    sha256: createHash('sha256').update(archive).digest('hex'),
    leftOut: leftOut.sort((a, b) => byPath(a.path, b.path)),
  };
}
