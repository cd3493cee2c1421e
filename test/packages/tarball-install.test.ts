/**
 * The three packages as a user gets them: packed tarballs, installed with the literal commands into
 * an empty project, then `agentgen init` / `generate`, a handler compiled against what was
 * installed, and real answers over HTTP from the container routes. The production tree must hold
 * none of the generator's own dependencies. The same installed packages then serve CommonJS
 * projects that `npm init -y` and `tsc --init` made (commonjs-project.ts), once per compiler.
 *
 * The packages are not on npm, so a tiny registry on 127.0.0.1 serves the @agentgen scope (and
 * only it) from the tarballs; every other package comes from the configured registry (the npm
 * cache is warm after `npm ci`). `npm pack` runs in a copy of the checkout, so its `prepack` builds
 * never rewrite the dist/ folders that other tests run from.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Packed, packedOnce, type Result, run, startScopeRegistry } from '../../scripts/packed-packages.mjs';
import { compilers } from '../tsc/compilers.mjs';
import { type CommonJsProject, makeCommonJsProject } from './commonjs-project.js';
import { type CompiledServer, startCompiledServer } from './compiled-server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');

/** The generator's own dependencies (and the repo's build tools): never in a production tree. */
const forbidden = ['ts-morph', 'typescript', 'handlebars', 'yargs', 'openapi-typescript'];

const packages = [
  { name: '@agentgen/runtime', folder: 'runtime' },
  { name: '@agentgen/agent-app', folder: 'agent-app' },
  { name: '@agentgen/cli', folder: 'cli' },
] as const;
type PackageName = (typeof packages)[number]['name'];

/** Names of every package in an `npm ls --json` tree. */
function treeNames(tree: { dependencies?: Record<string, unknown> }): Set<string> {
  const names = new Set<string>();
  const walk = (node: { dependencies?: Record<string, unknown> }) => {
    for (const [name, child] of Object.entries(node.dependencies ?? {})) {
      // An optional peer that nothing installed (@opentelemetry/api of @agentgen/runtime) is listed
      // without a version (`{}`): it is not in the tree.
      if ((child as { version?: string }).version === undefined) continue;
      names.add(name);
      walk(child as { dependencies?: Record<string, unknown> });
    }
  };
  walk(tree);
  return names;
}

/** The starter spec with its commented-out `include` line switched on, as a user would edit it. */
function spec(initial: string): string {
  const edited = initial.replace(/^# include: .*$/m, 'include: [async_create_session, async_stream_query]');
  if (edited === initial) throw new Error(`agentgen init wrote no "# include:" line to switch on:\n${initial}`);
  return edited;
}

const handler = `import { AgentError, createAgentServer, type AgentHandlers } from './generated/server.js';
import type { Session } from './generated/types.js';

const sessions = new Map<string, Session>();

const handlers: AgentHandlers = {
  async async_create_session({ user_id, session_id, state }) {
    const id = session_id ?? \`s\${sessions.size + 1}\`;
    if (sessions.has(id)) throw new AgentError('ALREADY_EXISTS', \`session \${id} exists\`);
    const session: Session = { id, app_name: 'probe', user_id, state: state ?? {}, events: [] };
    sessions.set(id, session);
    return session;
  },
  async *async_stream_query({ user_id, message }) {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    for (const word of text.split(' ')) {
      yield { author: 'probe', content: { role: 'model', parts: [{ text: \`\${user_id}:\${word}\` }] } };
    }
  },
};

const server = createAgentServer(handlers, { host: '127.0.0.1', port: 0 });
const { port } = await server.listen();
console.log(JSON.stringify({ port }));
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
`;

const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023'],
    strict: true,
    noUncheckedIndexedAccess: true,
    outDir: 'dist',
    rootDir: '.',
    // Only @types/node comes from the checkout; everything else resolves in this project.
    typeRoots: [join(root, 'node_modules/@types')],
    types: ['node'],
  },
  include: ['main.ts', 'generated'],
};

let work: string;
let project: string;
let packed: Map<PackageName, Packed>;
let registry: Awaited<ReturnType<typeof startScopeRegistry>> | undefined;
let container: CompiledServer | undefined;
let base: string;
const installs: Result[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'agentgen-tarballs-'));
  // Packed once per state of the sources, with test/scaffold/create-project.test.ts.
  const all = await packedOnce();
  packed = new Map(packages.map(({ name }) => [name, all.get(name)!]));
  registry = await startScopeRegistry(packed);

  // An empty project: a manifest with no dependencies, and the scope's registry.
  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'probe', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  writeFileSync(join(project, '.npmrc'), `@agentgen:registry=${registry.url}\n`);
  const npmFlags = ['--prefer-offline', '--no-audit', '--no-fund'];
  installs.push(await run('npm', ['i', '-D', '@agentgen/cli', ...npmFlags], project));
  installs.push(await run('npm', ['i', '@agentgen/runtime', 'zod', ...npmFlags], project));

  // `npx --no`: never fetch a package named `agentgen` (an unrelated one) if the bin were missing.
  await run('npx', ['--no', 'agentgen', 'init'], project);
  writeFileSync(join(project, 'agentgen.yaml'), spec(readFileSync(join(project, 'agentgen.yaml'), 'utf8')));
  await run('npx', ['--no', 'agentgen', 'generate'], project);
  writeFileSync(join(project, 'main.ts'), handler);
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  await run(process.execPath, [tsc, '-p', 'tsconfig.json'], project);

  container = await startCompiledServer(project, 'dist/main.js');
  base = container.base;
}, 240_000);

afterAll(async () => {
  await container?.stop();
  await registry?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed tarballs', () => {
  test.each(packages.map((p) => p.name))('%s: LICENSE, README.md, package.json fields, exports and bin present; no tests or build info', (name) => {
    const { file, manifest, entries } = packed.get(name)!;
    const files = entries.map((entry) => entry.replace(/^package\//, ''));
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
    expect(execFileSync('tar', ['-xzOf', file, 'package/LICENSE'], { encoding: 'utf8' })).toBe(readFileSync(join(root, 'LICENSE'), 'utf8'));

    expect(manifest).toMatchObject({
      name,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      license: 'Apache-2.0',
      type: 'module',
      engines: { node: '^20.19.0 || >=22.12.0' },
    });
    expect(typeof manifest['description']).toBe('string');
    // Nothing runs on install: no install-time lifecycle scripts (building happens in prepack).
    const scripts = Object.keys((manifest['scripts'] ?? {}) as Record<string, string>);
    expect(scripts.filter((s) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(s))).toEqual([]);

    // Every export's `types` and `default` target and every bin is in the tarball.
    const targets: string[] = [];
    const collect = (value: unknown, condition: string) => {
      if (typeof value === 'string') {
        if (condition === 'types' || condition === 'default' || condition === '') targets.push(value);
      } else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) collect(inner, key.startsWith('.') ? '' : key);
      }
    };
    collect(manifest['exports'], '');
    collect(manifest['bin'], '');
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) expect(files, `${name}: ${target}`).toContain(target.replace(/^\.\//, ''));

    // No tests, fixtures, TypeScript build info or source maps.
    expect(files.filter((f) => /(^|\/)(test|tests|__tests__|fixtures)\/|\.test\.|\.tsbuildinfo$|\.map$|(^|\/)tsconfig[^/]*\.json$/.test(f))).toEqual([]);
  });

  test('@agentgen/cli ships its templates; @agentgen/runtime its sources for `runtime: bundle`', () => {
    const cli = packed.get('@agentgen/cli')!.entries;
    expect(cli).toEqual(
      expect.arrayContaining(['package/templates/header.hbs', 'package/templates/agentgen.yaml.hbs', 'package/templates/bundled-runtime-header.hbs']),
    );
    expect(packed.get('@agentgen/runtime')!.entries).toContain('package/src/index.ts');
  });
});

describe('installed into an empty project', () => {
  test('npm resolved the @agentgen scope from the local registry and nothing else', () => {
    const asked = new Set(registry!.requests.map((r) => r.replace(/^GET /, '')));
    expect([...asked].filter((r) => !r.startsWith('tarballs/')).sort()).toEqual(['@agentgen/cli', '@agentgen/runtime']);
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    expect(Object.keys(manifest['devDependencies']!)).toEqual(['@agentgen/cli']);
    expect(Object.keys(manifest['dependencies']!).sort()).toEqual(['@agentgen/runtime', 'zod']);
    // The bin that `npx agentgen` ran is the installed package's.
    const bin = realpathSync(join(project, 'node_modules/.bin/agentgen'));
    expect(relative(project, bin)).toBe(join('node_modules', '@agentgen', 'cli', 'bin', 'agentgen.js'));
  });

  // No package in the tree has an install script, so npm 11 has nothing to warn about (issue 31):
  // dev's gRPC face is node:http2 with protobufjs 8, which has none (protobufjs 7's postinstall came
  // through @grpc/grpc-js's @grpc/proto-loader, which @agentgen/cli no longer depends on).
  test('installing names no install script, and no installed package has one', () => {
    for (const { stdout, stderr } of installs) {
      expect([...`${stdout}\n${stderr}`.matchAll(/^npm warn install-scripts\s+(\S+@\S+) \(/gm)].map((match) => match[1])).toEqual([]);
    }
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
    };
    expect(
      Object.entries(lock.packages)
        .filter(([, entry]) => entry.hasInstallScript)
        .map(([path]) => path),
    ).toEqual([]);
    expect(lock.packages['node_modules/@agentgen/cli']).toBeDefined();
    expect(lock.packages['node_modules/protobufjs']?.version).toMatch(/^8\./);
    expect(Object.keys(lock.packages).filter((path) => path.includes('node_modules/@grpc/'))).toEqual([]);
  });

  test('generate wrote the code for the two included operations', () => {
    expect(readdirSync(join(project, 'generated')).sort()).toEqual([
      'class-methods.json',
      'client.ts',
      'index.ts',
      'openapi-3.2.json',
      'openapi.json',
      'package.json',
      'server.ts',
      'types.ts',
      'validators.ts',
    ]);
    const manifest = JSON.parse(readFileSync(join(project, 'generated/class-methods.json'), 'utf8')) as Array<{ name: string; api_mode: string }>;
    expect(manifest.map(({ name, api_mode }) => [name, api_mode])).toEqual([
      ['async_create_session', 'async'],
      ['async_stream_query', 'async_stream'],
    ]);
    expect(lstatSync(join(project, 'dist/generated/server.js')).isFile()).toBe(true);
  });

  test('the container answers POST /api/reasoning_engine', async () => {
    const response = await fetch(`${base}/api/reasoning_engine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ class_method: 'async_create_session', input: { user_id: 'ada', state: { k: 1 } } }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ output: { id: 's1', app_name: 'probe', user_id: 'ada', state: { k: 1 }, events: [] } });

    const invalid = await fetch(`${base}/api/reasoning_engine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ class_method: 'async_create_session', input: {} }),
    });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: { status: string; message: string } }).error).toMatchObject({
      status: 'INVALID_ARGUMENT',
      message: expect.stringContaining('user_id'),
    });

    // Not declared (the spec includes two operations): dispatch knows only those.
    const undeclared = await fetch(`${base}/api/reasoning_engine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ class_method: 'async_get_session', input: { user_id: 'ada', session_id: 's1' } }),
    });
    expect(undeclared.status).toBe(404);
    expect(((await undeclared.json()) as { error: { status: string } }).error.status).toBe('NOT_FOUND');
  });

  test('the container streams from POST /api/stream_reasoning_engine', async () => {
    const response = await fetch(`${base}/api/stream_reasoning_engine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ class_method: 'async_stream_query', input: { user_id: 'ada', message: 'weather in Paris' } }),
    });
    expect(response.status).toBe(200);
    const lines = (await response.text()).split('\n').filter((line) => line !== '');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(
      ['ada:weather', 'ada:in', 'ada:Paris'].map((text) => ({ author: 'probe', content: { role: 'model', parts: [{ text }] } })),
    );
  });

  test(`the production tree (npm ls --omit=dev) holds none of ${forbidden.join(', ')}`, async () => {
    const production = treeNames(JSON.parse((await run('npm', ['ls', '--omit=dev', '--all', '--json'], project)).stdout) as object);
    // re2js is the runtime's optional peer (the linear-time engine of `pattern`): the cli's copy
    // satisfies it, so npm counts it in; it is loaded only by validators of a spec with a pattern.
    expect([...production].sort()).toEqual(['@agentgen/runtime', 're2js', 'zod']);
    expect(forbidden.filter((name) => production.has(name))).toEqual([]);
    // The same listing with dev dependencies does see the generator's (so the check above can fail).
    const everything = treeNames(JSON.parse((await run('npm', ['ls', '--all', '--json'], project)).stdout) as object);
    expect(everything.has('@agentgen/cli')).toBe(true);
    expect(everything.has('ts-morph')).toBe(true);
  });
});

// The same installed packages, in projects that `npm init -y` and `tsc --init` made and nobody edited.
describe.each(compilers)('a CommonJS project from npm init -y and $name --init, unedited', (compiler) => {
  let cjs: CommonJsProject;
  let server: CompiledServer | undefined;

  beforeAll(async () => {
    cjs = await makeCommonJsProject(join(work, `commonjs-tsc-${compiler.major}`), join(project, 'node_modules'), compiler);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  test('is CommonJS: "type": "commonjs", and tsconfig.json has module nodenext and verbatimModuleSyntax', () => {
    expect(cjs.manifest['type']).toBe('commonjs');
    expect(cjs.tsconfig).toMatch(/^\s*"module": "nodenext",$/m);
    expect(cjs.tsconfig).toMatch(/^\s*"verbatimModuleSyntax": true,$/m);
  });

  test('tsc passes; it compiles server.ts to a require() of the generated ES modules', () => {
    expect(cjs.tsc).toEqual({ status: 0, output: '' });
    expect(readFileSync(join(cjs.dir, 'server.js'), 'utf8')).toContain('require("./generated/index.js")');
    expect(readFileSync(join(cjs.dir, 'generated/index.js'), 'utf8')).toMatch(/^export \* from '\.\/validators\.js';$/m);
  });

  test('with an outDir and the copy step docs/generated-code.md gives, node runs dist/server.js too', async () => {
    expect(cjs.tscOutDir).toEqual({ status: 0, output: '' });
    const compiled = await startCompiledServer(cjs.dir, 'dist/server.js');
    try {
      const response = await fetch(`${compiled.base}/api/reasoning_engine`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ class_method: 'async_create_session', input: { user_id: 'ada' } }),
      });
      expect(await response.json()).toEqual({ output: { id: 'cjs-1', app_name: 'commonjs', user_id: 'ada', state: {}, events: [] } });
    } finally {
      await compiled.stop();
    }
  });

  test('node runs the compiled server, which answers POST /api/reasoning_engine', async () => {
    server = await startCompiledServer(cjs.dir, 'server.js');
    const response = await fetch(`${server.base}/api/reasoning_engine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ class_method: 'async_create_session', input: { user_id: 'grace', session_id: 'cjs-7', state: { lang: 'en' } } }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ output: { id: 'cjs-7', app_name: 'commonjs', user_id: 'grace', state: { lang: 'en' }, events: [] } });
  });
});
