// The repository's packages as a user gets them, for the scripts and tests that install them:
// `npm pack` of the workspaces (whose prepack scripts build them), and a registry on 127.0.0.1
// that serves the @agentgen scope from those tarballs (every other package comes from the
// configured registry, so npm's warm cache answers). Used by scripts/example-production-install.mjs
// and test/scaffold/.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalRegistry } from './local-registry.mjs';

export const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

/** The environment of child npm processes: nothing inherited from an enclosing `npm test`, `npm run` or `npx`, and no node_modules/.bin on PATH. */
export function childEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || key === 'INIT_CWD' || key === 'NODE_ENV') continue;
    env[key] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(':')
    .filter((entry) => !entry.includes('node_modules'))
    .join(':');
  return { ...env, ...extra };
}

/** Runs a command; rejects with its output when it fails. */
export function run(command, args, cwd, env = childEnv()) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${error.message}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

/**
 * The source tree (tracked, and untracked but not ignored) copied into `target`, its node_modules
 * entries symlinked to the checkout's, the workspace packages linked to the copies: packing there
 * (whose prepack rewrites dist/) leaves the dist/ folders that other tests run from alone.
 */
export async function copyCheckout(target, workspaces) {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], repositoryRoot);
  for (const path of stdout.split('\0')) {
    if (path === '' || !existsSync(join(repositoryRoot, path))) continue;
    mkdirSync(dirname(join(target, path)), { recursive: true });
    cpSync(join(repositoryRoot, path), join(target, path));
  }
  const modules = join(target, 'node_modules');
  mkdirSync(modules, { recursive: true });
  const linked = new Map(workspaces.map(({ name, folder }) => [name, folder]));
  for (const entry of readdirSync(join(repositoryRoot, 'node_modules'))) {
    if (entry === '.package-lock.json') continue;
    const names = entry.startsWith('@') ? readdirSync(join(repositoryRoot, 'node_modules', entry)).map((e) => `${entry}/${e}`) : [entry];
    for (const name of names) {
      mkdirSync(dirname(join(modules, name)), { recursive: true });
      const folder = linked.get(name);
      if (folder !== undefined) symlinkSync(join(target, folder), join(modules, name));
      else symlinkSync(realpathSync(join(repositoryRoot, 'node_modules', name)), join(modules, name));
    }
  }
}

/** The file name `npm pack` gives a package, without its version: `@agentgen/cli` → `agentgen-cli-`. */
function tarballPrefix(name) {
  return `${name.replace(/^@/, '').replace('/', '-')}-`;
}

/** The tarball of `name` in `dir` (absolute path). */
export function tarballFor(dir, name) {
  const file = readdirSync(dir).find((f) => f.startsWith(tarballPrefix(name)) && /^\d/.test(f.slice(tarballPrefix(name).length)) && f.endsWith('.tgz'));
  if (!file) throw new Error(`no tarball for ${name} in ${dir}`);
  return join(dir, file);
}

/**
 * `npm pack` of the workspaces (`[{name, folder}]`) in `cwd` into `destination`: name → { file,
 * manifest, integrity, shasum }. `@agentgen/runtime` first, alone: the others' builds read its
 * dist/, which its prepack rewrites. Then the rest at once (`parallel`), or in one npm run.
 */
export async function packWorkspaces(cwd, workspaces, destination, { parallel = false } = {}) {
  mkdirSync(destination, { recursive: true });
  const pack = (group) => run('npm', ['pack', ...group.flatMap(({ folder }) => ['-w', folder]), '--pack-destination', destination, '--loglevel=error'], cwd);
  const first = workspaces.filter(({ name }) => name === '@agentgen/runtime');
  const rest = workspaces.filter(({ name }) => name !== '@agentgen/runtime');
  if (first.length > 0) await pack(first);
  if (parallel) await Promise.all(rest.map((workspace) => pack([workspace])));
  else if (rest.length > 0) await pack(rest);
  return describeTarballs(destination, workspaces);
}

/** Each workspace's tarball in `dir`: its file, manifest, file list and checksums. */
async function describeTarballs(dir, workspaces) {
  const packed = new Map();
  for (const { name } of workspaces) {
    const file = tarballFor(dir, name);
    const { stdout } = await run('tar', ['-xzOf', file, 'package/package.json'], dir);
    const listing = await run('tar', ['-tzf', file], dir);
    const bytes = readFileSync(file);
    packed.set(name, {
      file,
      manifest: JSON.parse(stdout),
      entries: listing.stdout.split('\n').filter((line) => line !== ''),
      integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
      shasum: createHash('sha1').update(bytes).digest('hex'),
    });
  }
  return packed;
}

/** Every package this repository publishes, in the order they are packed. */
export const publishedWorkspaces = [
  { name: '@agentgen/runtime', folder: 'runtime' },
  { name: '@agentgen/agent-app', folder: 'agent-app' },
  { name: '@agentgen/cli', folder: 'cli' },
  { name: 'create-agentgen', folder: 'create-agentgen' },
];

const packWaitMs = 10 * 60 * 1000;

/** A digest of the sources a pack is built from: every tracked and untracked-but-not-ignored file, path and content. */
async function sourcesDigest() {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], repositoryRoot);
  const hash = createHash('sha256');
  for (const path of stdout.split('\0').sort()) {
    if (path === '' || !existsSync(join(repositoryRoot, path))) continue;
    hash
      .update(`${path}\0`)
      .update(readFileSync(join(repositoryRoot, path)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 24);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every published package packed once for a state of the sources, however many test files (in
 * however many workers) install them: kept in node_modules/.cache/agentgen-packed/<digest>/. The
 * first caller packs, in a copy of the checkout (whose prepack builds leave the checkout's own
 * dist/ alone), while the others wait for its `done` file; a packer that died is taken over.
 */
export async function packedOnce() {
  const cache = join(repositoryRoot, 'node_modules', '.cache', 'agentgen-packed');
  const dir = join(cache, await sourcesDigest());
  const done = join(dir, 'done');
  const lock = `${dir}.lock`;
  const deadline = Date.now() + packWaitMs;
  mkdirSync(cache, { recursive: true });
  while (!existsSync(done)) {
    let mine = false;
    try {
      mkdirSync(lock);
      mine = true;
    } catch {
      let owner = 0; // not written yet, or the lock is already gone: wait and look again
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {}
      if (owner > 0 && !alive(owner)) rmSync(lock, { recursive: true, force: true });
    }
    if (mine) {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      const work = mkdtempSync(join(tmpdir(), 'agentgen-pack-'));
      try {
        const checkout = join(work, 'checkout');
        await copyCheckout(checkout, publishedWorkspaces);
        const tarballs = join(work, 'tarballs');
        await packWorkspaces(checkout, publishedWorkspaces, tarballs, { parallel: true });
        rmSync(dir, { recursive: true, force: true });
        renameSync(tarballs, dir);
        writeFileSync(done, '');
        // The packs of earlier states of the sources are not asked for again: one state is kept.
        for (const entry of readdirSync(cache)) {
          if (join(cache, entry) !== dir && !entry.endsWith('.lock')) rmSync(join(cache, entry), { recursive: true, force: true });
        }
      } finally {
        rmSync(work, { recursive: true, force: true });
        rmSync(lock, { recursive: true, force: true });
      }
    } else {
      if (Date.now() > deadline) throw new Error(`packedOnce: waited ${packWaitMs / 60000} minutes for ${lock} (remove it if no test is running)`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  return describeTarballs(dir, publishedWorkspaces);
}

/**
 * A registry for the packed packages of one scope (scripts/local-registry.mjs, with nothing
 * upstream): point npm at it with `@scope:registry=<url>`. Every request is recorded.
 */
export function startScopeRegistry(packed) {
  return startLocalRegistry(packed);
}
