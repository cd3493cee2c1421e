#!/usr/bin/env node
// `npm run release:check`: a release without the publish. The four packages are packed (their
// prepack scripts build them) in a copy of the checkout, served by a registry on 127.0.0.1
// (scripts/local-registry.mjs: our packuments and tarballs, every other package from
// https://registry.npmjs.org), and installed the way users will once they are published:
//   npm install --registry <local> -D @agentgen/cli              in an empty project
//   npm create agentgen@<version> my-agent --yes --registry <local> -- --yes --no-install
//   npm install --registry <local>, then npm test               in the created project
// Each step is printed; the first that fails stops the check with a non-zero exit.
//
//   node scripts/release-check.mjs [--keep]     (--keep: leave the temp folder for a look)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { startLocalRegistry } from './local-registry.mjs';
import { childEnv, copyCheckout, packWorkspaces, publishedWorkspaces, repositoryRoot, run } from './packed-packages.mjs';
import { readVersion, versionDisagreements } from './version-copies.mjs';

const upstream = 'https://registry.npmjs.org/';
/** No step of a healthy run comes near this; a hung npm fails the check instead of stalling it. */
const stepTimeoutMs = 15 * 60 * 1000;
const keep = process.argv.slice(2).includes('--keep');
const unknown = process.argv.slice(2).filter((arg) => arg !== '--keep');
if (unknown.length > 0) {
  console.error(`unknown argument ${JSON.stringify(unknown[0])}\nusage: node scripts/release-check.mjs [--keep]`);
  process.exit(2);
}

let stepNumber = 0;
/** Prints a step, runs it, prints how long it took; a failure propagates. */
async function step(title, action) {
  stepNumber += 1;
  console.log(`\n[release:check] ${stepNumber}. ${title}`);
  const started = performance.now();
  const result = await action();
  console.log(`[release:check] ${stepNumber}. ok (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  return result;
}

/** Runs a command with its output shown, in its own process group (killed whole on timeout); rejects unless it exits 0. */
function shown(command, args, cwd, env) {
  console.log(`$ ${command} ${args.join(' ')}    (in ${cwd})`);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
    const timer = setTimeout(() => {
      process.kill(-child.pid, 'SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} took longer than ${stepTimeoutMs / 60000} minutes`));
    }, stepTimeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`));
    });
  });
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function expectEqual(what, found, expected) {
  if (found !== expected) throw new Error(`${what} is ${JSON.stringify(found)}, expected ${JSON.stringify(expected)}`);
}

/**
 * npm's environment for the run: nothing from the enclosing `npm run`, and a cache folder of its
 * own whose content store is the user's (warm: third-party tarballs are not downloaded again),
 * so the `npm create` install lands in a fresh `_npx` folder, never in one an earlier check left.
 */
async function npmEnvironment(work) {
  const userCache = (await run('npm', ['config', 'get', 'cache'], tmpdir())).stdout.trim();
  mkdirSync(join(userCache, '_cacache'), { recursive: true });
  const cache = join(work, 'npm-cache');
  mkdirSync(cache);
  symlinkSync(join(userCache, '_cacache'), join(cache, '_cacache'));
  return childEnv({ npm_config_cache: cache, npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' });
}

const work = mkdtempSync(join(tmpdir(), 'agentgen-release-check-'));
let registry;
let failed = false;
try {
  const version = await step('one version: package.json and every copy of it agree', () => {
    const found = readVersion(repositoryRoot);
    const disagreements = versionDisagreements(repositoryRoot, found);
    if (disagreements.length > 0) {
      throw new Error(
        `copies disagree with ${found}: ${disagreements.map((d) => `${d.where} is ${JSON.stringify(d.found)}`).join('; ')} (node scripts/version.mjs set ${found})`,
      );
    }
    console.log(`version ${found}`);
    return found;
  });

  const packed = await step(
    `npm pack ${publishedWorkspaces.map(({ name }) => name).join(', ')} (each prepack builds its package), in a copy of the checkout`,
    async () => {
      const checkout = join(work, 'checkout');
      await copyCheckout(checkout, publishedWorkspaces);
      const result = await packWorkspaces(checkout, publishedWorkspaces, join(work, 'tarballs'));
      const published = new Set(publishedWorkspaces.map(({ name }) => name));
      for (const [name, { file, manifest }] of result) {
        console.log(`${basename(file)}  ${(statSync(file).size / 1024).toFixed(0)} kB`);
        expectEqual(`the packed ${name}'s version`, manifest.version, version);
        for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
          if (published.has(dependency) && range !== version && range !== `^${version}`) {
            throw new Error(`the packed ${name} depends on ${dependency}@${range}, which is not the version being released (${version})`);
          }
        }
      }
      return result;
    },
  );

  const env = await npmEnvironment(work);
  registry = await step(`a registry on 127.0.0.1: the packed packages, everything else from ${upstream}`, async () => {
    const started = await startLocalRegistry(packed, { upstream });
    console.log(started.url);
    return started;
  });
  const npmRegistry = `--registry=${registry.url}`;

  const empty = join(work, 'empty-project');
  await step('npm install -D @agentgen/cli, in an empty project', async () => {
    mkdirSync(empty);
    writeFileSync(join(empty, 'package.json'), `${JSON.stringify({ name: 'release-check', version: '1.0.0', private: true }, null, 2)}\n`);
    await shown('npm', ['install', npmRegistry, '-D', '@agentgen/cli'], empty, env);
    expectEqual('the installed @agentgen/cli', readJson(join(empty, 'node_modules/@agentgen/cli/package.json')).version, version);
    expectEqual('the installed @agentgen/runtime', readJson(join(empty, 'node_modules/@agentgen/runtime/package.json')).version, version);
    // `--no`: never fetch the unrelated `agentgen` package if the bin were missing.
    const { stdout } = await run('npx', ['--no', '--', 'agentgen', '--version'], empty, env);
    expectEqual('npx agentgen --version', stdout.trim(), version);
    console.log(`npx agentgen --version: ${stdout.trim()}`);
  });

  const parent = join(work, 'create');
  const project = join(parent, 'my-agent');
  await step(`npm create agentgen@${version} my-agent, without a terminal`, async () => {
    mkdirSync(parent);
    // npm's --yes installs create-agentgen without asking; the one after -- is create-agentgen's.
    await shown('npm', ['create', `agentgen@${version}`, 'my-agent', '--yes', npmRegistry, '--', '--yes', '--no-install'], parent, env);
    const manifest = readJson(join(project, 'package.json'));
    expectEqual("the created project's @agentgen/cli", manifest.devDependencies?.['@agentgen/cli'], version);
    expectEqual("the created project's @agentgen/runtime", manifest.dependencies?.['@agentgen/runtime'], version);
  });

  await step('npm install, in the created project', async () => {
    await shown('npm', ['install', npmRegistry], project, env);
    expectEqual('its installed @agentgen/cli', readJson(join(project, 'node_modules/@agentgen/cli/package.json')).version, version);
  });

  await step('npm test, in the created project', () => shown('npm', ['test'], project, env));

  console.log(
    `\n[release:check] passed for ${version}: the registry served ${registry.requests.length} requests for our packages and forwarded ${registry.forwarded.length} to ${upstream}`,
  );
} catch (error) {
  failed = true;
  console.error(`\n[release:check] step ${stepNumber} failed: ${error.message}${keep ? '' : '\n(--keep leaves the work folder for a look)'}`);
} finally {
  await registry?.close();
  if (keep) console.error(`[release:check] the work folder is kept: ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
