/**
 * The project packed for a deploy from source: the .tar.gz that
 * `spec.sourceCodeSpec.inlineSource.sourceArchive` carries (bytes, so base64 in the JSON body;
 * reasoning_engine.proto, v1beta1), which the platform builds with the project's Dockerfile
 * (`imageSpec`). Google's own tools send the same: adk-go's `adkgo deploy agentengine` packs the
 * project with `tar -czf --exclude=.git`, python-aiplatform's `_set_source_code_spec` a tar.gz.
 *
 * What goes in: every regular file but those the ignore file leaves out
 * (source-archive-ignore-file.ts) and the secrets, known by their path (source-archive-secrets.ts)
 * or by what they hold (source-archive-secret-content.ts), unless the caller lets one through by
 * its exact path. Symbolic links are not followed. The bytes depend on the files' paths, contents
 * and executable bits only (source-archive-tar.ts), so the same tree packs to the same digest on
 * the same Node.js. Every path in a message is escaped (emulator/text/printable-text.ts): names are the project's.
 */
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, readdir, readFile, readlink, realpath } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sourceArchiveLimits } from '../../../contract/source-archive-limits.js';
import { printableBytes, printableText } from '../../../terminal/printable-text.js';
import { SourceArchiveError } from './source-archive-error.js';
import { type IgnoreRules, loadIgnoreRules } from './source-archive-ignore-file.js';
import { secretInContent } from './source-archive-secret-content.js';
import { alwaysSkippedNames, type SecretClass, type SecretFinding, secretByPath } from './source-archive-secrets.js';
import { type TarEntry, tarArchive } from './source-archive-tar.js';

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
   * Files agentgen's own rules kept out (secrets, with their class; symbolic links inside the
   * project, sockets and the like), each with why, for the plan and --dry-run to say; not the
   * files the ignore file leaves out, nor node_modules/ and .git/.
   */
  readonly leftOut: readonly LeftOut[];
  /** Files that look secret but were packed because the caller named them (`allowSecrets`), with what they look like. */
  readonly allowedSecrets: readonly LeftOut[];
}

export interface LeftOut {
  readonly path: string;
  readonly why: string;
  /** Set when the file was kept out (or, in allowedSecrets, let through) as a secret. */
  readonly secret?: SecretClass;
}

export interface PackOptions {
  /** Paths ('/'-separated, relative to the project, as `leftOut` names them) packed even though they look secret. */
  readonly allowSecrets?: ReadonlySet<string>;
}

/** agentgen's cap on the compressed archive (see contract/source-archive-limits.ts). */
export const inlineSourceLimitBytes = sourceArchiveLimits.compressedBytes;

/** More files than this is a folder that should have been left out (build output, a vendored tree). */
export const sourceFileLimit = sourceArchiveLimits.entries;

/** The tar's own limit, the one `agentgen dev` checks too: past it, the files are not even read. */
export const unpackedLimitBytes = sourceArchiveLimits.unpackedBytes;

interface FoundFile {
  readonly path: string;
  readonly size: number;
  readonly executable: boolean;
}

interface Walked {
  readonly files: FoundFile[];
  readonly leftOut: LeftOut[];
  readonly allowedSecrets: LeftOut[];
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
  return new SourceArchiveError(
    `cannot ${action} ${path === '' ? 'the project folder' : printableText(path)}: ${(error as NodeJS.ErrnoException).code ?? 'unknown error'}`,
  );
}

/**
 * A folder's entries with their names as bytes: a name that is not UTF-8 would otherwise come back
 * with U+FFFD in it, a name that does not exist (the misleading ENOENT of a later read).
 */
async function readFolder(root: string, folder: string) {
  try {
    return await readdir(join(root, folder), { withFileTypes: true, encoding: 'buffer' });
  } catch (error) {
    throw fsError('read the folder', folder, error);
  }
}

/** The entry's name as text, or an error naming it (its bytes escaped) when it is not UTF-8, which a tar's names must be. */
function entryName(raw: Buffer, folder: string, directory: boolean, rules: IgnoreRules): string | undefined {
  const name = raw.toString('utf8');
  if (Buffer.from(name, 'utf8').equals(raw)) return name;
  // The ignore file sees the name with U+FFFD in place of each bad byte: leaving out its folder, or a pattern with `*`, works.
  const path = folder === '' ? name : `${folder}/${name}`;
  if (directory ? rules.skipsFolder(path) : rules.ignores(path, false)) return undefined;
  const shown = `${folder === '' ? '' : `${printableText(folder)}/`}${printableBytes(raw)}`;
  throw new SourceArchiveError(
    `${shown} has a name that is not UTF-8 (its bytes are shown as \\xNN); the archive's names are UTF-8: rename it, or leave it out in ${ignoreFileAdvice(rules)}`,
  );
}

function secretEntry(path: string, finding: SecretFinding): LeftOut {
  return { path, why: finding.why, secret: finding.class };
}

async function walk(root: string, rules: IgnoreRules, options: PackOptions): Promise<Walked> {
  const walked: Walked = { files: [], leftOut: [], allowedSecrets: [] };
  const { files, leftOut } = walked;
  const folders = [''];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    for (const entry of await readFolder(root, folder)) {
      const name = entryName(entry.name, folder, entry.isDirectory(), rules);
      if (name === undefined || alwaysSkippedNames.has(name)) continue;
      const path = folder === '' ? name : `${folder}/${name}`;
      const absolute = join(root, path);
      if (entry.isDirectory()) {
        if (!rules.skipsFolder(path)) folders.push(path);
        continue;
      }
      if (rules.ignores(path, false)) continue;
      const secret = secretByPath(path);
      if (secret !== undefined && options.allowSecrets?.has(path) !== true) {
        leftOut.push(secretEntry(path, secret));
      } else if (entry.isSymbolicLink()) {
        let target: string;
        try {
          target = resolve(dirname(absolute), await readlink(absolute));
        } catch (error) {
          throw fsError('read the symbolic link', path, error);
        }
        if (target !== root && !target.startsWith(root + sep)) {
          throw new SourceArchiveError(
            `${printableText(path)} is a symbolic link to a path outside the project; a deploy from source packs only the project's own files: ` +
              `copy the file in, or leave the link out in ${ignoreFileAdvice(rules)}`,
          );
        }
        leftOut.push({ path, why: 'a symbolic link: the archive holds regular files and folders only (the link is not followed)' });
      } else if (!entry.isFile()) {
        leftOut.push({ path, why: 'not a regular file (a socket, FIFO or device)' });
      } else {
        let stats: Stats;
        try {
          stats = await lstat(absolute);
        } catch (error) {
          throw fsError('read', path, error);
        }
        files.push({ path, size: stats.size, executable: (stats.mode & 0o111) !== 0 });
        // Only a regular file is packed, so only one is reported as let through: an allowed link is still left out as a link.
        if (secret !== undefined) walked.allowedSecrets.push(secretEntry(path, secret));
        if (files.length > sourceFileLimit) throw tooManyEntries('files', rules);
      }
    }
  }
  return walked;
}

function tooManyEntries(what: string, rules: IgnoreRules): SourceArchiveError {
  return new SourceArchiveError(
    `the project has more than ${sourceFileLimit.toLocaleString('en-US')} ${what} to pack; a deploy from source takes the project's sources, not ` +
      `build output or vendored trees: leave those folders out in ${ignoreFileAdvice(rules)}, or build and push an image and set deploy.image`,
  );
}

/** The Dockerfile is what the platform builds (imageSpec): it must be at the root and packed. */
async function checkDockerfile(root: string, rules: IgnoreRules, files: readonly FoundFile[], leftOut: readonly LeftOut[]): Promise<void> {
  if (files.some((file) => file.path === 'Dockerfile')) return;
  const why = 'the platform builds the project from its Dockerfile (imageSpec)';
  const orImage = 'or build and push an image and set deploy.image';
  const refused = leftOut.find((entry) => entry.path === 'Dockerfile' && entry.secret !== undefined);
  if (refused !== undefined) throw new SourceArchiveError(`${why}, and the project's Dockerfile looks like a secret (${refused.why}); it is never packed`);
  let stats: Stats;
  try {
    stats = await lstat(join(root, 'Dockerfile'));
  } catch {
    throw new SourceArchiveError(`${why}, and the project has none at its root (${printableText(root)}); add one, ${orImage}`);
  }
  if (!stats.isFile()) throw new SourceArchiveError(`${why}, and the project's Dockerfile is not a regular file (a symbolic link?); make it one, ${orImage}`);
  throw new SourceArchiveError(`${why}, but ${rules.file ?? 'the ignore file'} leaves the Dockerfile out; remove the line that matches it, ${orImage}`);
}

function tooLarge(what: string, limit: number, files: readonly FoundFile[], rules: IgnoreRules): SourceArchiveError {
  const largest = [...files]
    .sort((a, b) => b.size - a.size || byPath(a.path, b.path))
    .slice(0, 5)
    .map((file) => `  ${printableText(file.path)} (${formatBytes(file.size)})`);
  return new SourceArchiveError(
    `${what}, over agentgen's limit of ${formatBytes(limit)}${limit === unpackedLimitBytes ? ' unpacked' : ' compressed'} for a deploy from source ` +
      `(the API publishes no limit; ${limit === unpackedLimitBytes ? 'agentgen dev checks the same' : 'the request carries the archive in base64'}). ` +
      `The largest files packed:\n${largest.join('\n')}\n` +
      `Leave out what the build does not need in ${ignoreFileAdvice(rules)}, or build and push an image and set deploy.image to deploy it instead.`,
  );
}

/**
 * The files read for the tar, each checked for what it holds as it is read: a secret found is left
 * out (unless allowed) and never kept in memory past its check.
 */
async function readFiles(root: string, walked: Walked, options: PackOptions): Promise<{ packed: FoundFile[]; entries: TarEntry[] }> {
  const folders = new Set<string>();
  const packed: FoundFile[] = [];
  const entries: { key: string; entry: TarEntry }[] = [];
  const allowedByPath = new Set(walked.allowedSecrets.map((entry) => entry.path));
  for (const file of walked.files) {
    let data: Buffer;
    try {
      data = await readFile(join(root, file.path));
    } catch (error) {
      throw fsError('read', file.path, error);
    }
    // A file let through by its path is let through whatever it holds; one that holds a secret is refused unless allowed too.
    const secret = allowedByPath.has(file.path) ? undefined : secretInContent(file.path, data);
    if (secret !== undefined) {
      if (options.allowSecrets?.has(file.path) !== true) {
        walked.leftOut.push(secretEntry(file.path, secret));
        continue;
      }
      walked.allowedSecrets.push(secretEntry(file.path, secret));
    }
    packed.push(file);
    entries.push({ key: file.path, entry: { type: 'file', path: file.path, data, executable: file.executable } });
    for (let slash = file.path.indexOf('/'); slash >= 0; slash = file.path.indexOf('/', slash + 1)) folders.add(file.path.slice(0, slash));
  }
  // A folder's entry sorts before its contents ("a/" before "a/b"), so tar creates it first.
  for (const folder of folders) entries.push({ key: `${folder}/`, entry: { type: 'directory', path: folder } });
  return { packed, entries: entries.sort((a, b) => byPath(a.key, b.key)).map(({ entry }) => entry) };
}

export async function packSource(projectDir: string, options: PackOptions = {}): Promise<SourceArchive> {
  let root: string;
  try {
    root = await realpath(projectDir);
    if (!(await lstat(root)).isDirectory()) throw new SourceArchiveError(`${printableText(projectDir)} is not a folder`);
  } catch (error) {
    if (error instanceof SourceArchiveError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new SourceArchiveError(`the project folder ${printableText(projectDir)} does not exist`);
    throw fsError('open', projectDir, error);
  }
  const rules = await loadIgnoreRules(root);
  const walked = await walk(root, rules, options);
  const total = walked.files.reduce((sum, file) => sum + file.size, 0);
  if (total > unpackedLimitBytes) throw tooLarge(`the files to pack add up to ${formatBytes(total)}`, unpackedLimitBytes, walked.files, rules);
  const { packed, entries } = await readFiles(root, walked, options);
  await checkDockerfile(root, rules, packed, walked.leftOut);
  if (entries.length > sourceFileLimit) throw tooManyEntries('files and folders', rules);
  const tar = tarArchive(entries);
  if (tar.length > unpackedLimitBytes) throw tooLarge(`the archive is ${formatBytes(tar.length)} unpacked`, unpackedLimitBytes, packed, rules);
  const archive = gzipSync(tar, { level: 9 });
  // gzip's header names the OS that wrote it (byte 9; zlib fixes it per platform): 3, Unix, always,
  // so that the digest does not depend on where agentgen ran. The header has no CRC to update.
  archive[9] = 3;
  if (archive.length > inlineSourceLimitBytes)
    throw tooLarge(`the packed source is ${formatBytes(archive.length)} compressed`, inlineSourceLimitBytes, packed, rules);
  return {
    archive,
    files: packed.map((file) => file.path).sort(byPath),
    bytes: archive.length,
    sha256: createHash('sha256').update(archive).digest('hex'),
    leftOut: walked.leftOut.sort((a, b) => byPath(a.path, b.path)),
    allowedSecrets: walked.allowedSecrets.sort((a, b) => byPath(a.path, b.path)),
  };
}
