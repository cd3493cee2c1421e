#!/usr/bin/env node
// What the weather-agent image's production stage installs, without Docker: the three packages
// packed (`npm pack` runs their prepack builds), the example built, then a folder holding only the
// example's package.json (its @agentgen/* dependencies pointed at the tarballs, no devDependencies)
// and its dist/, installed with `npm install --omit=dev`. Prints the size of node_modules and the
// number of packages, and the same for @google/adk + zod alone (the floor: ADK itself brings
// ts-morph, through @mikro-orm/reflection). Fails if @agentgen/cli is installed or an @agentgen
// package brings ts-morph, typescript, handlebars, yargs or openapi-typescript; then answers one
// streamed question with the offline model to show the install runs.
//
//   node scripts/example-production-install.mjs [--keep]     (--keep: leave the temp folder)
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packWorkspaces, tarballFor } from './packed-packages.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const example = join(root, 'examples/weather-agent');
const forbidden = ['ts-morph', 'typescript', 'handlebars', 'yargs', 'openapi-typescript', '@agentgen/cli'];
const keep = process.argv.includes('--keep');

/** `du -sm node_modules`, and the installed packages as name@version (from the lockfile). */
function measure(dir) {
  const megabytes = Number(sh('du', ['-sm', 'node_modules'], dir).split(/\s/)[0]);
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
  const installed = Object.entries(lock.packages).filter(([path, entry]) => path !== '' && !entry.dev && !entry.link);
  const packages = new Set(installed.map(([path, entry]) => `${path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${entry.version}`));
  const topLevel = readdirSync(join(dir, 'node_modules'))
    .filter((entry) => !entry.startsWith('.'))
    .flatMap((entry) => (entry.startsWith('@') ? readdirSync(join(dir, 'node_modules', entry)).map((e) => `${entry}/${e}`) : [entry])).length;
  return { megabytes, packages, copies: installed.length, topLevel };
}

function sh(command, args, cwd) {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed (${error.status ?? error.signal}):\n${error.stdout ?? ''}`);
  }
}

const work = mkdtempSync(join(tmpdir(), 'weather-agent-production-'));
let failed = false;
try {
  const packagesDir = join(work, 'packages');
  mkdirSync(packagesDir);
  console.error('packing @agentgen/runtime, @agentgen/agent-app, @agentgen/cli ...');
  await packWorkspaces(
    root,
    [
      { name: '@agentgen/runtime', folder: 'runtime' },
      { name: '@agentgen/agent-app', folder: 'agent-app' },
      { name: '@agentgen/cli', folder: 'cli' },
    ],
    packagesDir,
  );
  console.error('building the example ...');
  sh('npm', ['run', 'build', '-w', 'weather-agent', '--loglevel=error'], root);

  const app = join(work, 'app');
  mkdirSync(app);
  cpSync(join(example, 'dist'), join(app, 'dist'), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(example, 'package.json'), 'utf8'));
  delete manifest.devDependencies;
  delete manifest.scripts;
  const tarball = (name) => `file:${tarballFor(packagesDir, name)}`;
  for (const name of Object.keys(manifest.dependencies)) {
    if (name.startsWith('@agentgen/')) manifest.dependencies[name] = tarball(name);
  }
  writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.error(`npm install --omit=dev in ${app} ...`);
  sh('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], app);

  const footprint = measure(app);
  const describe = ({ megabytes, packages, copies, topLevel }) =>
    `${megabytes} MB (du -sm node_modules); ${copies} packages installed, ${packages.size} distinct name@version, ${topLevel} top-level`;
  console.log(`production install: ${describe(footprint)}`);

  // The floor: the same install with @google/adk and zod alone (ADK brings ts-morph of its own,
  // through @mikro-orm/reflection), so what our packages add is the difference.
  const floor = join(work, 'floor');
  mkdirSync(floor);
  const floorDependencies = Object.fromEntries(Object.entries(manifest.dependencies).filter(([name]) => !name.startsWith('@agentgen/')));
  writeFileSync(join(floor, 'package.json'), `${JSON.stringify({ name: 'floor', private: true, dependencies: floorDependencies }, null, 2)}\n`);
  sh('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], floor);
  const baseline = measure(floor);
  const added = [...footprint.packages].filter((id) => !baseline.packages.has(id)).sort();
  console.log(`${Object.keys(floorDependencies).join(' + ')} alone: ${describe(baseline)}`);
  const ours = sh('du', ['-sk', 'node_modules/@agentgen'], app).split(/\s/)[0];
  console.log(`added by the @agentgen packages: ${added.join(', ') || 'nothing'} (node_modules/@agentgen: ${ours} kB)`);

  // A forbidden package fails the check when it is present at all and not wanted by ADK's tree,
  // or when any @agentgen package leads to it.
  const tree = JSON.parse(sh('npm', ['ls', '--omit=dev', '--all', '--json'], app));
  const through = new Map();
  const walk = (node, chain) => {
    for (const [name, child] of Object.entries(node.dependencies ?? {})) {
      const path = [...chain, name];
      if (forbidden.includes(name)) through.set(name, [...(through.get(name) ?? []), path.join(' > ')]);
      walk(child, path);
    }
  };
  walk(tree, []);
  for (const [name, paths] of through) console.log(`${name} is present, through: ${[...new Set(paths)].join('; ')}`);
  const brought = [...through].filter(
    ([name, paths]) =>
      name.startsWith('@agentgen/') ||
      paths.some((p) =>
        p
          .split(' > ')
          .slice(0, -1)
          .some((n) => n.startsWith('@agentgen/')),
      ),
  );
  const unexplained = added.filter((id) => forbidden.includes(id.slice(0, id.lastIndexOf('@'))));
  if (brought.length > 0 || unexplained.length > 0) {
    console.error(`FAIL: the @agentgen packages bring ${[...new Set([...brought.map(([name]) => name), ...unexplained])].join(', ')} into production`);
    failed = true;
  } else {
    console.log(`no @agentgen package brings any of ${forbidden.join(', ')}`);
  }

  // It runs, as the image runs it (the bundle, its externals from this install): the container on a
  // free port with the offline model, one streamed question.
  const child = spawn(process.execPath, ['dist/main.mjs'], {
    cwd: app,
    env: { ...process.env, PORT: '0', AGENT_MODEL: 'offline', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  try {
    const port = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const match = /listening on .*:(\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`the container exited (${code}):\n${out}${log}`)));
    });
    const response = await fetch(`http://127.0.0.1:${port}/api/stream_reasoning_engine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ class_method: 'async_stream_query', input: { user_id: 'u1', message: 'Weather in Paris?' } }),
    });
    const text = await response.text();
    if (response.status === 200 && text.includes('It is clear and 18°C in Paris.')) {
      console.log('the installed container answers: It is clear and 18°C in Paris.');
    } else {
      console.error(`FAIL: the installed container answered ${response.status}:\n${text}\n${log}`);
      failed = true;
    }
  } finally {
    child.kill('SIGTERM');
  }
} finally {
  if (keep) console.error(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
