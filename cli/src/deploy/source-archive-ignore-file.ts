/**
 * Which of the project's files the upload leaves out, by its ignore file: `.gcloudignore` when
 * there is one (gitignore syntax plus `#!include:FILE`, as gcloud reads it: `gcloud topic
 * gcloudignore`; googlecloudsdk/command_lib/util/gcloudignore.py), else `.dockerignore` (Docker's
 * own semantics: source-archive-dockerignore.ts), else none.
 */
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore from 'ignore';
import { printableText } from '../../../terminal/printable-text.js';
import { DockerIgnorePatternError, dockerIgnore, readDockerIgnore } from './source-archive-dockerignore.js';
import { SourceArchiveError } from './source-archive-error.js';

export type IgnoreFileName = '.gcloudignore' | '.dockerignore';

export interface IgnoreRules {
  /** The file the rules come from, or undefined when the project has neither. */
  readonly file: IgnoreFileName | undefined;
  /** Whether the file leaves out `path` ('/'-separated, relative to the project). */
  ignores(path: string, directory: boolean): boolean;
  /** Whether nothing under the folder `path` can be packed, so the walk need not enter it. */
  skipsFolder(path: string): boolean;
}

/** The ignore file's text, undefined when it does not exist; an error when it is not a regular file. */
async function readIgnoreFile(root: string, name: string): Promise<string | undefined> {
  const path = join(root, name);
  try {
    const stats = await lstat(path);
    if (!stats.isFile())
      throw new SourceArchiveError(`${printableText(name)} is not a regular file (a symbolic link or a folder): agentgen reads it only as a file`);
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof SourceArchiveError) throw error;
    throw new SourceArchiveError(`cannot read ${printableText(name)}: ${(error as NodeJS.ErrnoException).code ?? 'unknown error'}`);
  }
}

/**
 * gcloud's `#!include:FILE` (also `# !include:FILE`): the lines of FILE, which must sit beside
 * `.gcloudignore`, in its place. Only in `.gcloudignore` itself: gcloud does not follow an include
 * inside an included file (recurse=1), and to gitignore syntax that line is a comment.
 */
async function expandIncludes(root: string, text: string): Promise<string[]> {
  const lines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const directive = line.startsWith('#') ? line.slice(1).trimStart() : '';
    if (!directive.startsWith('!include:')) {
      lines.push(line);
      continue;
    }
    const included = directive.slice('!include:'.length);
    if (included.includes('/') || included === '' || included === '.' || included === '..') {
      throw new SourceArchiveError(`.gcloudignore: "${printableText(line)}" may include only a file beside .gcloudignore, named without a '/'`);
    }
    const content = await readIgnoreFile(root, included);
    if (content === undefined)
      throw new SourceArchiveError(`.gcloudignore: "${printableText(line)}" includes ${printableText(included)}, which does not exist`);
    lines.push(...content.split(/\r?\n/));
  }
  return lines;
}

function gcloudRules(lines: readonly string[]): IgnoreRules {
  // Case-sensitive, as gcloud's fnmatch is on Linux and git's matching is by default there.
  const rules = ignore({ ignorecase: false }).add(lines as string[]);
  return {
    file: '.gcloudignore',
    ignores: (path, directory) => rules.ignores(directory ? `${path}/` : path),
    // A file under a left-out folder cannot be re-included (gitignore; gcloud's IsIncluded too).
    skipsFolder: (path) => rules.ignores(`${path}/`),
  };
}

/**
 * Docker sends the Dockerfile and .dockerignore to the builder even when .dockerignore lists them
 * (its reference: "These files are still sent to the daemon because it needs them to do its job");
 * the platform's build needs them in the archive for the same reason.
 */
const sentByDocker: ReadonlySet<string> = new Set(['Dockerfile', '.dockerignore']);

function dockerRules(text: string): IgnoreRules {
  let rules: ReturnType<typeof dockerIgnore>;
  try {
    rules = dockerIgnore(readDockerIgnore(text));
  } catch (error) {
    if (error instanceof DockerIgnorePatternError) throw new SourceArchiveError(`.dockerignore: ${error.message}, as Docker would refuse it`);
    throw error;
  }
  return {
    file: '.dockerignore',
    ignores: (path) => !sentByDocker.has(path) && rules.ignores(path),
    // With a `!` line anywhere, a file under a left-out folder may come back: walk in.
    skipsFolder: (path) => !rules.hasExclusions && rules.ignores(path),
  };
}

const noRules: IgnoreRules = { file: undefined, ignores: () => false, skipsFolder: () => false };

export async function loadIgnoreRules(root: string): Promise<IgnoreRules> {
  const gcloud = await readIgnoreFile(root, '.gcloudignore');
  if (gcloud !== undefined) return gcloudRules(await expandIncludes(root, gcloud));
  const docker = await readIgnoreFile(root, '.dockerignore');
  if (docker !== undefined) return dockerRules(docker);
  return noRules;
}
