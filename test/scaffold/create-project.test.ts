/**
 * Issue 21: `npm create agentgen` from packed tarballs of this repository, in an empty folder, for
 * both templates: create (which installs) → `npm test` passes (the project's own test: the
 * container on loopback, a streamed turn through the generated client and `agentgen dev`,
 * `agentgen conformance`) → `npm run dev` serves a streamed turn of the offline model through the
 * emulator → `npm ci --omit=dev` (in a folder holding only package.json and package-lock.json, as
 * the Dockerfile's final stage does, plus the bundle dist/*.mjs that `npm test` built) leaves no
 * generator package in the tree, and the container starts from that install and answers. The two
 * templates run at once, and each one's production install runs beside its `npm test`, to save
 * time (the issue asks for under two minutes); the timings of the steps are printed at the end.
 *
 * The @agentgen packages are not on npm: a registry on 127.0.0.1 serves that scope from the
 * tarballs (scripts/packed-packages.mjs); everything else comes from the configured registry,
 * through npm's warm cache. `npm create agentgen@latest my-agent -- --yes` is
 * `npm exec create-agentgen@latest -- my-agent --yes`; create-agentgen is not on npm either, so the
 * test runs `npm exec --package=<its tarball> -- create-agentgen my-agent --yes`. npm's cache is
 * the user's (warm) content cache with a private `_npx` folder per template, so no run leaves an
 * npx install behind and the two never install into the same folder.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generatorVersion } from '../../generator/version.js';
import { childEnv, type Packed, packedOnce, type Result, run, startScopeRegistry } from '../../scripts/packed-packages.mjs';

/** The generator and its build tools: never in a production install brought by an @agentgen package. */
const generatorPackages = ['@agentgen/cli', 'handlebars', 'yargs', 'ts-morph', 'typescript', 'openapi-typescript'];

let work: string;
let packed: Map<string, Packed>;
let registry: Awaited<ReturnType<typeof startScopeRegistry>>;
let env: NodeJS.ProcessEnv;
/** The user's npm content cache (warm after `npm ci`), shared by every npm of the run. */
let cacache: string;
const timings: string[] = [];
const templates = ['adk', 'custom'] as const;
type Template = (typeof templates)[number];
const runs = new Map<Template, Run>();

async function timed<T>(label: string, step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await step();
  } finally {
    timings.push(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

/** npm's cache folder as the user has it (its `_cacache` is what `--prefer-offline` reads). */
async function userNpmCache(): Promise<string> {
  return (await run('npm', ['config', 'get', 'cache'], tmpdir())).stdout.trim();
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'agentgen-create-'));
  // The user's npm settings are read while the packages are packed: neither waits on the other.
  const userCache = handled(userNpmCache());
  const userConfigFile = handled(run('npm', ['config', 'get', 'userconfig'], tmpdir()));
  // Shared with test/packages/tarball-install.test.ts: packed once per state of the sources.
  packed = await timed('npm pack (4 packages, with their prepack builds), or the same packs of an earlier test', () => packedOnce());
  registry = await startScopeRegistry(new Map([...packed].filter(([name]) => name.startsWith('@agentgen/'))));
  cacache = realpathSync(join(await userCache, '_cacache'));
  // The scope's registry goes in a user config file: a shell between npm and a child npm (npm exec,
  // npm run) drops environment variables whose names are not identifiers (`npm_config_@agentgen:registry`).
  const userConfig = (await userConfigFile).stdout.trim();
  const npmrc = join(work, 'npmrc');
  writeFileSync(npmrc, `${existsSync(userConfig) ? readFileSync(userConfig, 'utf8').trimEnd() + '\n' : ''}@agentgen:registry=${registry.url}\n`);
  // --prefer-offline for every npm in the run, the nested ones too: the cache is warm after `npm ci`.
  // No audit or funding request either: `npm exec`'s own install of create-agentgen (unlike the
  // project's `npm install` and `npm ci`, which pass --no-audit --no-fund) would otherwise send
  // the registry an audit request on a machine whose npm config does not turn it off; nothing
  // here reads its report.
  env = childEnv({
    npm_config_userconfig: npmrc,
    npm_config_update_notifier: 'false',
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  });
  // Both templates at once: each runs its steps in order, and its production install alongside.
  for (const template of templates) runs.set(template, startRun(template));
}, 300_000);

afterAll(async () => {
  // Each run removes its folders once its last step is done (custom's while adk's steps still run).
  const removed = await Promise.allSettled([...runs.values()].map((r) => r.removed));
  await registry?.close();
  console.log(`create-project timings:\n  ${timings.join('\n  ')}`);
  // What is left: the npmrc and the cache folders (their _cacache is a symlink: the user's cache stays).
  if (work) rmSync(work, { recursive: true, force: true });
  for (const outcome of removed) if (outcome.status === 'rejected') throw outcome.reason;
}, 180_000);

/** Starts `command` in its own process group; resolves with the first match of `pattern` in its output. */
function startUntil(command: string, args: readonly string[], cwd: string, pattern: RegExp, processEnv: NodeJS.ProcessEnv) {
  const child = spawn(command, args, { cwd, env: processEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const match = new Promise<RegExpExecArray>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = pattern.exec(output);
      if (found) resolve(found);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited (${code}) before ${pattern}:\n${output}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      process.kill(-child.pid!, 'SIGTERM');
    });
  return { match, stop, output: () => output };
}

async function streamedLines(url: string, body: unknown, headers: Record<string, string> = {}): Promise<unknown[]> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** Every text part of a list of events, in order. */
function texts(events: unknown[]): string[] {
  return events.flatMap((event) =>
    ((event as { content?: { parts?: { text?: string }[] } }).content?.parts ?? []).flatMap((part) => (part.text === undefined ? [] : [part.text])),
  );
}

/** What each template answers to one question, the same on every route and with every model run. */
const turns = {
  adk: {
    method: 'async_stream_query',
    input: { user_id: 'u1', message: 'What is the weather in Paris?' },
    answer: (events: unknown[]) => texts(events).at(-1),
    expected: 'It is sunny and 21°C in Paris.',
  },
  custom: {
    method: 'stream_query',
    input: { message: 'hello' },
    answer: (events: unknown[]) => (events as { text: string }[]).map((event) => event.text).join(''),
    expected: 'Hello! Ask me anything. ',
  },
} as const;

/** Names of the packages in an `npm ls --json` tree, each with the chain of names that leads to it. */
function chains(tree: { dependencies?: Record<string, unknown> }): Map<string, string[][]> {
  const found = new Map<string, string[][]>();
  const walk = (node: { dependencies?: Record<string, unknown> }, chain: string[]) => {
    for (const [name, child] of Object.entries(node.dependencies ?? {})) {
      // An optional peer nobody installed is listed without a version: it is not in the tree.
      if ((child as { version?: string }).version === undefined) continue;
      found.set(name, [...(found.get(name) ?? []), [...chain, name]]);
      walk(child as { dependencies?: Record<string, unknown> }, [...chain, name]);
    }
  };
  walk(tree, []);
  return found;
}

/**
 * One template's steps, started at once and awaited by the tests: create (with its install), then
 * `npm test`, then `npm run dev` (the two compile into the same dist/), then `npm run check` (here,
 * so that one template's check runs while the other's steps go on, not after both); and, as soon
 * as the project has its lockfile, the production install in a folder of its own holding only
 * package.json and package-lock.json (as the Dockerfile's final stage does), which gets the bundle
 * once `npm test` has built it. What the tests look at in the folders is read as each step ends:
 * each folder is then removed as soon as the steps that use it are done, the disk's work beside
 * the other run's steps instead of all of it at the end (removing tens of thousands of files took
 * 45 s at the end on this machine's busy disk).
 */
interface Run {
  readonly created: Promise<Result & { written: Written }>;
  readonly tested: Promise<Result & { bundled: boolean }>;
  readonly dev: Promise<{ events: unknown[]; output: string }>;
  readonly production: Promise<{
    tree: Map<string, string[][]>;
    events: unknown[];
    output: string;
    installed: Record<(typeof productionPaths)[number], boolean>;
    liveness: number;
    unsetModelTurn: string;
  }>;
  readonly checked: Promise<Result>;
  /** The run's folders removed, once every step above has settled. */
  readonly removed: Promise<void>;
}

/** The files `npm create` writes that the first test looks for. */
const projectFiles = [
  'agentgen.yaml',
  'src/agent.ts',
  'src/main.ts',
  'test/agent.test.ts',
  'Dockerfile',
  '.dockerignore',
  '.gitignore',
  '.github/workflows/ci.yml',
  'README.md',
  'generated/server.ts',
  'generated/client.ts',
  'generated/class-methods.json',
  'node_modules/@agentgen/cli/package.json',
] as const;

/** The project as `npm create` left it: which of projectFiles exist, and the two files the test reads. */
interface Written {
  exists: Record<(typeof projectFiles)[number], boolean>;
  manifest: string;
  dockerfile: string;
}

/** The paths of the production install the fourth test looks for. */
const productionPaths = ['node_modules/@agentgen/runtime/package.json', 'node_modules/@agentgen/cli', 'node_modules/handlebars'] as const;

/** Whether each of `paths` exists under `root`. */
function present<P extends string>(root: string, paths: readonly P[]): Record<P, boolean> {
  return Object.fromEntries(paths.map((path) => [path, existsSync(join(root, path))])) as Record<P, boolean>;
}

/** Settles when `promise` does, whatever its outcome. */
function settled(promise: Promise<unknown>): Promise<void> {
  return promise.then(
    () => {},
    () => {},
  );
}

/** Removes a folder and what it holds (without following symlinks), timed. */
function removal(label: string, folder: string): Promise<void> {
  // Retried: a stopped process group's last member may still be exiting beside it.
  return timed(label, () => rm(folder, { recursive: true, force: true, maxRetries: 3 }));
}

/** Marks a promise as handled (its test awaits it later); the promise itself still rejects there. */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

function startRun(template: Template): Run {
  const parent = join(work, template);
  mkdirSync(parent);
  const project = join(parent, 'my-agent');
  // A cache folder of its own (its own `_npx`: the two runs' \`npm exec\` installs never share a
  // folder, and none is left behind), over the shared content cache.
  const cache = join(work, `npm-cache-${template}`);
  mkdirSync(cache);
  symlinkSync(cacache, join(cache, '_cacache'));
  const runEnv = { ...env, npm_config_cache: cache };
  // The adk template is the default: the README's exact command.
  const options = template === 'adk' ? ['--yes'] : ['--yes', '--template', 'custom'];
  const createTarball = packed.get('create-agentgen')!.file;
  const created = handled(
    timed(`${template}: npm create (writes, then npm install)`, () =>
      run('npm', ['exec', '--yes', `--package=${createTarball}`, '--', 'create-agentgen', 'my-agent', ...options], parent, runEnv),
    ).then((result) => ({
      ...result,
      written: {
        exists: present(project, projectFiles),
        manifest: readFileSync(join(project, 'package.json'), 'utf8'),
        dockerfile: readFileSync(join(project, 'Dockerfile'), 'utf8'),
      },
    })),
  );
  const tested = handled(
    created.then(async () => {
      const result = await timed(`${template}: npm test`, () => run('npm', ['test'], project, runEnv));
      return { ...result, bundled: existsSync(join(project, 'dist/main.mjs')) };
    }),
  );
  const dev = handled(tested.then(() => devTurn(template, project, runEnv)));
  // After dev, whatever its outcome: generated/ is checked once every other step has run in the project.
  const checked = handled(settled(dev).then(() => timed(`${template}: npm run check`, () => run('npm', ['run', 'check'], project, runEnv))));
  const production = handled(
    created.then(async () => {
      const folder = join(parent, 'production');
      mkdirSync(folder);
      for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(project, file), join(folder, file));
      await timed(`${template}: npm ci --omit=dev`, () => run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], folder, runEnv));
      const tree = chains(JSON.parse((await run('npm', ['ls', '--omit=dev', '--all', '--json'], folder, runEnv)).stdout) as object);
      const installed = present(folder, productionPaths);
      await tested;
      // What the Dockerfile's final stage copies: the bundle (dist/main.mjs and its chunks) and its source maps, nothing else of dist/.
      mkdirSync(join(folder, 'dist'));
      for (const file of readdirSync(join(project, 'dist')).filter((name) => /\.mjs(\.map)?$/.test(name))) {
        copyFileSync(join(project, 'dist', file), join(folder, 'dist', file));
      }
      // An engine with its own agent identity starts its image once before env and secret_env are
      // applied (Google's agents-cli, DESIGN.md): with nothing but PORT, it must start and answer liveness.
      const bare = startUntil(process.execPath, ['dist/main.mjs'], folder, /listening on \S+:(\d+)/, { PATH: process.env['PATH'] ?? '', PORT: '0' });
      let liveness: number;
      let unsetModelTurn: string;
      try {
        const [, barePort] = await bare.match;
        liveness = (await fetch(`http://127.0.0.1:${barePort}/health`)).status;
        // A turn then fails saying what to set, instead of the container refusing to start.
        const turn = turns[template];
        const answer = await fetch(`http://127.0.0.1:${barePort}/api/stream_reasoning_engine`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ class_method: turn.method, input: turn.input }),
        });
        unsetModelTurn = await answer.text();
      } finally {
        await bare.stop();
      }
      const container = startUntil(process.execPath, ['dist/main.mjs'], folder, /listening on \S+:(\d+)/, {
        ...runEnv,
        PORT: '0',
        AGENT_MODEL: 'offline',
        NODE_ENV: 'production',
      });
      try {
        const [, port] = await container.match;
        const turn = turns[template];
        const events = await streamedLines(`http://127.0.0.1:${port}/api/stream_reasoning_engine`, { class_method: turn.method, input: turn.input });
        return { tree, events, output: container.output(), installed, liveness, unsetModelTurn };
      } finally {
        await container.stop();
      }
    }),
  );
  // `npm exec`'s install of create-agentgen is used by create alone; the production install is done
  // with once its containers have stopped; the project, once dev and check are done with it.
  const removed = Promise.all([
    settled(created).then(() => removal(`${template}: remove npm exec's install`, join(cache, '_npx'))),
    settled(production).then(() => removal(`${template}: remove the production install`, join(parent, 'production'))),
  ]).then(() => Promise.allSettled([tested, dev, checked]).then(() => removal(`${template}: remove the project`, parent)));
  return { created, tested, dev, production, checked, removed };
}

/** `npm run dev` (on a free port; AGENT_MODEL unset, so the script's default) until it serves, then one streamed turn through the emulator. */
async function devTurn(template: Template, project: string, runEnv: NodeJS.ProcessEnv): Promise<{ events: unknown[]; output: string }> {
  const dev = startUntil('npm', ['run', 'dev', '--', '--port', '0'], project, /POST (http:\/\/127\.0\.0\.1:\d+)\/v1\/(\S+?):query/, {
    ...runEnv,
    AGENT_MODEL: '',
  });
  try {
    const [, base, resource] = await timed(`${template}: npm run dev until it serves`, () => dev.match);
    const turn = turns[template];
    const events = await streamedLines(
      `${base}/v1/${resource}:streamQuery`,
      { classMethod: turn.method, input: turn.input },
      { authorization: 'Bearer local' },
    );
    return { events, output: dev.output() };
  } finally {
    await dev.stop();
  }
}

describe.each(templates)('npm create agentgen, %s template', (template) => {
  const runOf = () => runs.get(template)!;

  test('writes the project, pinned to the versions of the @agentgen/cli that wrote it, and installs it', async () => {
    const { stdout, written } = await runOf().created;
    expect(stdout).toContain(`created my-agent: my-agent, ${template} template`);
    expect(stdout).toMatch(/next:\n {2}cd my-agent\n {2}npm test\n {2}npm run dev\n/);
    for (const file of projectFiles.filter((path) => !path.startsWith('node_modules/'))) {
      expect(written.exists[file], file).toBe(true);
    }
    const manifest = JSON.parse(written.manifest) as Record<string, Record<string, string>>;
    const version = packed.get('@agentgen/cli')!.manifest.version;
    expect(version).toBe(generatorVersion);
    expect(manifest['devDependencies']).toMatchObject({ '@agentgen/cli': version, typescript: expect.any(String) });
    expect(manifest['dependencies']!['@agentgen/runtime']).toBe(version);
    expect(manifest['dependencies']!['@agentgen/agent-app']).toBe(template === 'adk' ? version : undefined);
    expect(Object.keys(manifest['scripts']!)).toEqual(expect.arrayContaining(['dev', 'test', 'generate', 'check', 'deploy']));
    // The bundle is what `npm start`, `npm run dev` and the Dockerfile run.
    expect(manifest['scripts']!['start']).toBe('node dist/main.mjs');
    expect(written.dockerfile).toMatch(/^CMD \["node", "dist\/main\.mjs"\]$/m);
    expect(written.exists['node_modules/@agentgen/cli/package.json']).toBe(true);
    // The @agentgen scope came from the tarballs.
    expect(registry.requests).toEqual(expect.arrayContaining([`GET @agentgen/cli`, `GET @agentgen/runtime`]));
  }, 300_000);

  test('npm test passes: its container, a streamed turn through the generated client, agentgen conformance', async () => {
    const { stdout, bundled } = await runOf().tested;
    expect(bundled, 'the bundle the test starts').toBe(true);
    expect(stdout).toMatch(/^# fail 0$/m);
    expect(stdout).toMatch(/^ok \d+ - agentgen conformance passes against the container$/m);
    expect(stdout).not.toMatch(/^not ok/m);
  }, 300_000);

  test('npm run dev serves a streamed turn of the offline model through the emulator', async () => {
    const { events, output } = await runOf().dev;
    const turn = turns[template];
    expect(turn.answer(events), output).toBe(turn.expected);
  }, 300_000);

  test('npm ci --omit=dev: no generator package brought in, and the container starts from it (with nothing but PORT, too)', async () => {
    const { tree, events, output, installed, liveness, unsetModelTurn } = await runOf().production;
    expect(liveness, 'GET /health of the container started with nothing but PORT').toBe(200);
    // custom: the handler's AgentError, a FAILED_PRECONDITION line; adk: ADK's error event of the turn.
    const failure = template === 'custom' ? /AGENT_MODEL is not set.*"status":"FAILED_PRECONDITION"/ : /"error_message":"AGENT_MODEL is not set/;
    expect(unsetModelTurn).toMatch(failure);
    expect(tree.has('@agentgen/runtime')).toBe(true);
    expect(installed['node_modules/@agentgen/runtime/package.json']).toBe(true);
    expect(installed['node_modules/@agentgen/cli']).toBe(false);
    expect(installed['node_modules/handlebars']).toBe(false);
    // None reached through an @agentgen package or as the project's own. (ADK brings ts-morph and
    // typescript of its own, through @mikro-orm/reflection: the adk template holds them, through
    // @google/adk only.)
    const broughtByUs = generatorPackages.filter((name) =>
      (tree.get(name) ?? []).some((chain) => chain.length === 1 || chain.slice(0, -1).some((n) => n.startsWith('@agentgen/'))),
    );
    expect(broughtByUs).toEqual([]);
    if (template === 'custom') expect(generatorPackages.filter((name) => tree.has(name))).toEqual([]);
    const turn = turns[template];
    expect(turn.answer(events), output).toBe(turn.expected);
  }, 300_000);

  test('agentgen check: generated/ is what the spec generates', async () => {
    const { stdout } = await runOf().checked;
    expect(stdout).toMatch(/generated\/ is up to date/);
  }, 300_000);
});
