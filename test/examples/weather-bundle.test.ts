/**
 * The weather example as `npm start` runs it: one bundle made by the example's own
 * rolldown.config.mjs (issue 34). The bundle is built here (into node_modules/.cache, so the
 * packages it leaves external resolve from the repository's node_modules as they do from the
 * image's), then: its files (dist/main.mjs and the chunk of the session database it loads on
 * demand) import nothing but Node's built-ins, the packages the config names external and each
 * other, and MikroORM only from the database's chunk (not at start); it starts with nothing but PORT and answers GET /health; with the offline model it
 * streams a whole turn; with its sessions in PostgreSQL (AGENT_SESSION_SERVICE_URI) the turn works
 * too, through MikroORM and the driver loaded from node_modules; SIGTERM stops it with exit 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rolldown } from 'rolldown';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type PostgresCluster, startPostgres } from '../helpers/postgres.js';
import { repositoryRoot } from '../replicas/bundle.js';

const example = join(repositoryRoot, 'examples/weather-agent');
let dir: string;
let bundle: string;

interface Config {
  input: string;
  external: (id: string) => boolean;
  output: { dir: string; entryFileNames: string; format: string; sourcemap: boolean };
}
let config: Config;
/**
 * The PostgreSQL cluster of the last test, started with the build: initdb and pg_ctl spend their
 * seconds mostly waiting (for the server to start), which the build and the first tests overlap.
 */
let pgStarting: Promise<PostgresCluster> | undefined;

beforeAll(async () => {
  pgStarting = startPostgres('weather_bundle');
  pgStarting.catch(() => {}); // its failure is the PostgreSQL test's, reported where that awaits it
  config = (await import(pathToFileURL(join(example, 'rolldown.config.mjs')).href)).default as Config;
  const cache = join(repositoryRoot, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  dir = mkdtempSync(join(cache, 'weather-bundle-'));
  bundle = join(dir, config.output.entryFileNames);
  // The config's own options, from the example's folder; only the output folder differs.
  const build = await rolldown({ ...config, cwd: example, logLevel: 'silent' } as Parameters<typeof rolldown>[0]);
  await build.write({ ...config.output, dir } as Parameters<typeof build.write>[0]);
  await build.close();
}, 120_000);

afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  await (await pgStarting?.catch(() => undefined))?.stop();
});

describe("the example's bundle", () => {
  test('npm start and the Dockerfile run the file the config writes', () => {
    const manifest = JSON.parse(readFileSync(join(example, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(`${config.output.dir}/${config.output.entryFileNames}`).toBe('dist/main.mjs');
    expect(manifest.scripts['start']).toBe('node dist/main.mjs');
    expect(manifest.scripts['build']).toMatch(/^tsc -p tsconfig\.json && rolldown -c rolldown\.config\.mjs$/);
    expect(readFileSync(join(example, 'Dockerfile'), 'utf8')).toMatch(/^CMD \["node", "dist\/main\.mjs"\]$/m);
  });

  test('its files (main.mjs with its source map beside it) import only built-ins, the packages left external and each other', () => {
    const files = chunks();
    expect(Object.keys(files)).toContain('main.mjs');
    expect(readFileSync(`${bundle}.map`, 'utf8')).toContain('"sources"');
    for (const [file, specifiers] of Object.entries(files)) {
      const others = specifiers.filter((specifier) => !builtins.has(specifier) && !specifier.startsWith('node:'));
      expect(
        others.filter((specifier) => !config.external(specifier) && !(specifier.startsWith('./') && specifier.slice(2) in files)),
        file,
      ).toEqual([]);
    }
    // @google/adk, the runtime, AgentApp and zod are inside.
    for (const name of ['@google/adk', '@agentgen/agent-app', '@agentgen/runtime/server', 'zod']) expect(config.external(name), name).toBe(false);
    expect(readFileSync(bundle, 'utf8')).toMatch(/^var AgentApp = class\b/m);
  });

  test('MikroORM is imported by the chunk of the session database only, never by the start', () => {
    const files = chunks();
    const mikroOrm = (file: string) => files[file]!.filter((specifier) => specifier.startsWith('@mikro-orm/'));
    // The chunks main.mjs loads at start (its static imports, and theirs) import no MikroORM module.
    const atStart = new Set<string>();
    const visit = (file: string): void => {
      if (atStart.has(file)) return;
      atStart.add(file);
      for (const specifier of statics(readFileSync(join(dir, file), 'utf8'))) if (specifier.startsWith('./')) visit(specifier.slice(2));
    };
    visit('main.mjs');
    for (const file of atStart) expect(mikroOrm(file), file).toEqual([]);
    const lazy = Object.keys(files).filter((file) => !atStart.has(file));
    expect(lazy.filter((file) => mikroOrm(file).includes('@mikro-orm/core'))).toHaveLength(1);
    // One copy of ADK's session classes for both: the database chunk takes them from the start's.
    const code = Object.keys(files).map((file) => readFileSync(join(dir, file), 'utf8'));
    for (const name of ['BaseSessionService', 'InMemorySessionService', 'DatabaseSessionService']) {
      expect(code.join('\n').match(new RegExp(`__name(?:\\$\\d+)?\\(_${name}, "${name}"\\)`, 'g')), name).toHaveLength(1);
    }
  });
});

const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

/** The code without its comment lines (JSDoc quotes `import('./x')` types). */
const uncommented = (code: string) =>
  code
    .split('\n')
    .filter((line) => !/^\s*(\*|\/\/)/.test(line))
    .join('\n');

/** A chunk's static imports (`import … from 'x'`, `export … from 'x'`). */
const statics = (code: string) => [...uncommented(code).matchAll(/^(?:import|export)\s+(?:[^'"]*?\s+from\s+)?["']([^"']+)["'];?$/gm)].map((m) => m[1]!);

/** Each .mjs file of the bundle and what it imports: statically, dynamically and by `require`, with a literal specifier. */
function chunks(): Record<string, string[]> {
  const files: Record<string, string[]> = {};
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.mjs'))) {
    const code = readFileSync(join(dir, file), 'utf8');
    const dynamic = [...uncommented(code).matchAll(/\b(?:import|__require)\(["']([^"']+)["']\)/g)].map((m) => m[1]!);
    files[file] = [...new Set([...statics(code), ...dynamic])];
  }
  return files;
}

/** The bundle as the platform starts it: `env` and nothing else; resolves once it listens. */
async function start(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [bundle], { cwd: dir, env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" within 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on \S+:(\d+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before listening:\n${output}`));
    });
  });
  return { url: `http://127.0.0.1:${port}`, child, output: () => output };
}

function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

/** One streamed turn on the container's own route: its events, parsed. */
async function streamedTurn(url: string, input: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const response = await fetch(`${url}/api/stream_reasoning_engine`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ class_method: 'async_stream_query', input }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

type Part = { text?: string; function_call?: { name: string; args: unknown } };
const partsOf = (events: Record<string, unknown>[]) => events.flatMap((event) => ((event['content'] as { parts?: Part[] } | undefined)?.parts ?? []) as Part[]);

function expectWeatherTurn(events: Record<string, unknown>[], output: string): void {
  const parts = partsOf(events);
  expect(parts.find((part) => part.function_call)?.function_call, output).toMatchObject({ name: 'get_weather', args: { city: 'Paris' } });
  expect(parts.at(-1)?.text, output).toMatch(/Paris/);
}

describe('the bundled container', () => {
  test('starts with nothing but PORT and answers GET /health 200; SIGTERM stops it with exit 0', async () => {
    const { url, child, output } = await start({ PORT: '0' });
    try {
      const health = await fetch(`${url}/health`);
      expect(health.status, output()).toBe(200);
    } finally {
      expect(await stop(child), output()).toBe(0);
    }
  }, 60_000);

  test('streams a whole turn of the offline model: the tool call, its result, the answer', async () => {
    const { url, child, output } = await start({ PORT: '0', AGENT_MODEL: 'offline' });
    try {
      expectWeatherTurn(await streamedTurn(url, { user_id: 'u1', message: 'What is the weather in Paris?' }), output());
    } finally {
      await stop(child);
    }
  }, 60_000);

  describe('with its sessions in PostgreSQL: MikroORM and the driver, left external, load from node_modules', () => {
    let pg: PostgresCluster;
    beforeAll(async () => {
      pg = await pgStarting!;
    }, 120_000);

    test('a turn in a session the database keeps', async () => {
      const { url, child, output } = await start({ PORT: '0', AGENT_MODEL: 'offline', AGENT_SESSION_SERVICE_URI: pg.uri });
      try {
        expectWeatherTurn(await streamedTurn(url, { user_id: 'u1', message: 'What is the weather in Paris?' }), output());
        // The turn's events are rows of the database, not of the process's memory.
        const [events] = await pg.query('SELECT count(*) FROM events');
        expect(Number(events), output()).toBeGreaterThan(0);
      } finally {
        await stop(child);
      }
    }, 90_000);
  });
});

describe("the example's rolldown.config.mjs", () => {
  // The example is a workspace of this repository, not a scaffolded project, so its config is its
  // own file; what it bundles and leaves external must stay what a new project's does.
  test("is the scaffold's, comments aside", () => {
    const code = (path: string) =>
      readFileSync(join(repositoryRoot, path), 'utf8')
        .split('\n')
        .filter((line) => !line.trim().startsWith('//'))
        .join('\n');
    expect(code('examples/weather-agent/rolldown.config.mjs')).toBe(code('templates/scaffold/shared/rolldown.config.mjs.hbs'));
  });
});
