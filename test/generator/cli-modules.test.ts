/**
 * What each verb loads: the built bin (`npm run build` first) runs with a hook that records every
 * module the process resolves (ES modules, through a `module.register` resolve hook) or holds in
 * the CommonJS cache at exit (what `require` loaded, which the hook does not see). ts-morph costs
 * about half a second to load, so only printing may load it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { root } from './golden-cases.js';

const bin = join(root, 'cli/bin/agentgen.js');
let dir: string;
let record: string;
/** `generate --out std` of the standard surface, run under the recorder in beforeAll. */
let generated: Awaited<ReturnType<typeof loaded>>;

const recorder = `
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
const out = process.env.AGENTGEN_MODULE_RECORD;
register(new URL('./hooks.mjs', import.meta.url), { data: { out } });
const require = createRequire(import.meta.url);
process.on('exit', () => appendFileSync(out, Object.keys(require.cache).join('\\n') + '\\n'));
`;
const hooks = `
import { appendFileSync } from 'node:fs';
let out;
export function initialize(data) { out = data.out; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(out, result.url + '\\n');
  return result;
}
`;

const spec = 'agentgen: 1\nname: t\nsurface: agent-app\ninclude: [async_create_session, async_stream_query]\n';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentgen-modules-'));
  writeFileSync(join(dir, 'recorder.mjs'), recorder);
  writeFileSync(join(dir, 'hooks.mjs'), hooks);
  writeFileSync(join(dir, 'spec.yaml'), spec);
  writeFileSync(join(dir, 'deploy.yaml'), `${spec}deploy: { project: my-project, location: us-central1, image: example.com/a:1 }\n`);
  record = join(dir, 'record.txt');
  // Output for `check` to find current. The standard surface's is written under the recorder: that
  // run is the first test's generate, which would otherwise print the same output once more.
  generated = await loaded(['generate', '--out', 'std']);
  expect(generated.code, generated.output).toBe(0);
  execFileSync(process.execPath, [bin, 'generate', '--spec', 'spec.yaml', '--runtime', 'bundle', '--out', 'bundled'], { cwd: dir });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The packages (by name under node_modules/) a process loaded. */
function packagesIn(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line);
    if (match) names.add(match[1]!);
  }
  return names;
}

/** Runs the bin under the recorder until it exits (or, with `until`, until its output matches, then SIGTERM). */
async function loaded(args: string[], until?: RegExp): Promise<{ packages: Set<string>; code: number | null; output: string }> {
  rmSync(record, { force: true });
  writeFileSync(record, '');
  const child = spawn(process.execPath, ['--import', join(dir, 'recorder.mjs'), bin, ...args], {
    cwd: dir,
    env: { ...process.env, AGENTGEN_MODULE_RECORD: record },
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk;
    if (until?.test(output)) child.kill('SIGTERM');
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const code = await new Promise<number | null>((done) => child.on('close', (exitCode) => done(exitCode)));
  return { packages: packagesIn(readFileSync(record, 'utf8')), code, output };
}

const printer = ['ts-morph', '@ts-morph/common', 'typescript'];

describe('the module graph of each verb (built bin)', () => {
  test('the recorder sees ts-morph when generate prints (so the assertions below can fail)', () => {
    const run = generated;
    expect(run.code).toBe(0);
    expect(run.packages).toContain('ts-morph');
    expect(run.packages).toContain('handlebars');
    // Standard surface: no spec to read, and the common forms of its options need no yargs.
    for (const name of ['yaml', 'zod', 'yargs', 'openapi-typescript']) expect(run.packages).not.toContain(name);
  });

  test.each(
    [
      { args: ['--help'], also: ['handlebars', 'yaml', 'zod'] },
      { args: ['--version'], also: ['handlebars', 'yaml', 'zod', 'yargs'] },
      { args: ['manifest'], also: ['handlebars', 'yaml', 'zod', 'yargs'] },
      { args: ['manifest', '--spec', 'spec.yaml'], also: ['handlebars', 'yargs'] },
      { args: ['init', '--name', 'x'], also: [] },
      // A dry run calls nothing, so it needs no credentials library.
      { args: ['deploy', '--dry-run', '--spec', 'deploy.yaml'], also: ['google-auth-library', 'handlebars', 'yargs'] },
      { args: ['manifest', '--format', 'terraform', '--spec', 'deploy.yaml'], also: ['google-auth-library', 'handlebars', 'yargs'] },
      { args: ['breaking', 'spec.yaml', 'deploy.yaml'], also: ['google-auth-library', 'handlebars'] },
    ].map((run) => ({ ...run, command: `agentgen ${run.args.join(' ')}` })),
  )('$command loads no ts-morph, nor $also', async ({ args, also }) => {
    rmSync(join(dir, 'agentgen.yaml'), { force: true });
    const run = await loaded(args);
    rmSync(join(dir, 'agentgen.yaml'), { force: true });
    expect(run.code, run.output).toBe(0);
    if (args[0] === 'check') expect(run.output).toMatch(/is up to date/);
    for (const name of [...printer, ...also]) expect(run.packages).not.toContain(name);
  });

  test('dev (serving until SIGTERM) loads no ts-morph nor handlebars', async () => {
    const run = await loaded(['dev', '--container', 'http://127.0.0.1:9', '--port', '0'], /try: curl/);
    expect(run.output).toMatch(/agentgen dev: 13 declared methods/);
    expect(run.output).toMatch(/agentgen dev: stopped/);
    for (const name of [...printer, 'handlebars']) expect(run.packages).not.toContain(name);
  });

  test('conformance (against a closed port) loads no ts-morph nor handlebars', async () => {
    const port = await new Promise<number>((done) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => done(port));
      });
    });
    const run = await loaded(['conformance', '--url', `http://127.0.0.1:${port}`, '--timeout', '2000']);
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/failed/);
    for (const name of [...printer, 'handlebars']) expect(run.packages).not.toContain(name);
  });

  // check of a folder that generate just wrote takes the record of what it wrote (every file's
  // digest, generator/write/output-record.ts) and prints nothing; a runtime: bundle output has no
  // record, so check prints it and compares bytes. Its time is measured by `npm run bench -- cli`.
  test.each(
    [
      { args: ['check', '--out', 'std'], prints: false, also: ['yaml', 'zod', 'yargs', 'handlebars'] },
      { args: ['check', '--spec', 'spec.yaml', '--runtime', 'bundle', '--out', 'bundled'], prints: true, also: ['yargs'] },
    ].map((run) => ({ ...run, command: `agentgen ${run.args.join(' ')}` })),
  )('$command: prints (ts-morph) $prints, loads none of $also', async ({ args, prints, also }) => {
    const run = await loaded(args);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/is up to date/);
    if (prints) expect(run.packages).toContain('ts-morph');
    else expect(run.packages).not.toContain('ts-morph');
    for (const name of also) expect(run.packages).not.toContain(name);
  });

  test('check reports a stale file from the same full emit', async () => {
    const types = join(dir, 'std/types.ts');
    const original = readFileSync(types, 'utf8');
    writeFileSync(types, original.replace('export type OperationName', 'export type OperationNames'));
    try {
      const run = await loaded(['check', '--out', 'std']);
      expect(run.code).toBe(1);
      expect(run.output).toMatch(/^ {2}different std\/types\.ts$/m);
    } finally {
      writeFileSync(types, original);
    }
  });
});
