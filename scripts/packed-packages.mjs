// The repository's packages as a user gets them, for the scripts and tests that install them:
// `npm pack` of the workspaces (whose prepack scripts build them), and a registry on 127.0.0.1
// that serves the @agentgen scope from those tarballs (every other package comes from the
// configured registry, so npm's warm cache answers). Used by scripts/example-production-install.mjs
// and test/scaffold/.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  const packed = new Map();
  for (const { name } of workspaces) {
    const file = tarballFor(destination, name);
    const { stdout } = await run('tar', ['-xzOf', file, 'package/package.json'], destination);
    const bytes = readFileSync(file);
    packed.set(name, {
      file,
      manifest: JSON.parse(stdout),
      integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
      shasum: createHash('sha1').update(bytes).digest('hex'),
    });
  }
  return packed;
}

/**
 * A registry for the packed packages of one scope: packuments at `<url>@scope%2fname`, tarballs at
 * `<url>tarballs/<file>`, under a fresh path per run so that nothing npm cached from an earlier run
 * answers for this one. Point npm at it with `@scope:registry=<url>`. Every request is recorded.
 */
export async function startScopeRegistry(packed) {
  const prefix = `/run-${process.pid}-${Date.now()}/`;
  const requests = [];
  let url = '';
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '').split('?')[0]);
    const rest = path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
    requests.push(`${req.method} ${rest ?? path}`);
    const tarball = rest?.startsWith('tarballs/') ? [...packed.values()].find((p) => basename(p.file) === rest.slice('tarballs/'.length)) : undefined;
    const document = rest === undefined ? undefined : packed.get(rest);
    if (req.method === 'GET' && tarball) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(tarball.file));
    } else if (req.method === 'GET' && document) {
      const { manifest } = document;
      const version = { ...manifest, _id: `${manifest.name}@${manifest.version}`, dist: { tarball: `${url}tarballs/${basename(document.file)}`, integrity: document.integrity, shasum: document.shasum } };
      const packument = { _id: manifest.name, name: manifest.name, 'dist-tags': { latest: manifest.version }, versions: { [manifest.version]: version } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}${prefix}`;
  const close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url, requests, close };
}
