/** The `agentgen` command: in-process through `main`, and once as the real bin in a child process. */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { main } from '../../generator/cli/main.js';
import { generatorVersion } from '../../generator/version.js';
import { root } from './golden-cases.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentgen-cli-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { cwd: dir, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const spec = (extra = '') => `agentgen: 1\nname: t\nsurface: agent-app\ninclude: [async_create_session, async_stream_query]\n${extra}`;

describe('generate and check', () => {
  test('with no spec, generate writes the standard surface; check is 0 right after', async () => {
    const first = await run('generate');
    expect(first.code).toBe(0);
    expect(readdirSync(join(dir, 'generated')).sort()).toEqual(
      ['class-methods.json', 'client.ts', 'index.ts', 'openapi.json', 'server.ts', 'types.ts', 'validators.ts'],
    );
    expect(first.stdout).toMatch(/^wrote {5}generated\/class-methods\.json$/m);
    expect(readFileSync(join(dir, 'generated/types.ts'), 'utf8')).toBe(readFileSync(join(root, 'generated/types.ts'), 'utf8'));
    expect((await run('check')).code).toBe(0);
    expect((await run('generate')).stdout).not.toMatch(/wrote/);
  });

  test('check is 1 and lists stale files after the spec changes', async () => {
    writeFileSync(join(dir, 'agentgen.yaml'), spec());
    await run('generate', '--out', 'out');
    writeFileSync(join(dir, 'agentgen.yaml'), spec().replace('async_stream_query', 'async_get_session'));
    const check = await run('check', '--out', 'out');
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(/^ {2}different out\/types\.ts$/m);
    rmSync(join(dir, 'out/openapi.json'));
    expect((await run('check', '--out', 'out')).stderr).toMatch(/^ {2}missing +out\/openapi\.json$/m);
  });

  test('a bad spec exits non-zero with located errors and writes nothing', async () => {
    writeFileSync(join(dir, 'bad.yaml'), 'agentgen: 1\nname: t\noperations:\n  q:\n    api_mode: sync\n');
    const result = await run('generate', '--spec', 'bad.yaml');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^bad\.yaml:5:15: operations\.q\.api_mode: unknown api_mode "sync"/);
    expect(existsSync(join(dir, 'generated'))).toBe(false);
  });

  test('a named spec that does not exist is an error, not the standard surface', async () => {
    const result = await run('generate', '--spec', 'nope.yaml');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/nope\.yaml: \(top level\): cannot read the spec/);
  });
});

describe('manifest, init, usage', () => {
  test('manifest prints the classMethods JSON', async () => {
    writeFileSync(join(dir, 'agentgen.yaml'), spec());
    const result = await run('manifest');
    expect(JSON.parse(result.stdout).map((m: { name: string; api_mode: string }) => [m.name, m.api_mode])).toEqual([
      ['async_create_session', 'async'],
      ['async_stream_query', 'async_stream'],
    ]);
  });

  test('init writes a valid starter spec and never overwrites without --force', async () => {
    expect((await run('init', '--name', 'my-agent')).code).toBe(0);
    expect(readFileSync(join(dir, 'agentgen.yaml'), 'utf8')).toMatch(/^name: "my-agent"$/m);
    expect((await run('generate')).code).toBe(0);
    writeFileSync(join(dir, 'agentgen.yaml'), 'mine');
    const again = await run('init');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists; use --force/);
    expect(readFileSync(join(dir, 'agentgen.yaml'), 'utf8')).toBe('mine');
    expect((await run('init', '--force')).code).toBe(0);
  });

  test.each(['generate', 'check', 'manifest', 'init'])('%s --help describes the verb', async (verb) => {
    const result = await run(verb, '--help');
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).toMatch(/--help/);
  });

  test('an unknown verb or option is a usage error (exit 2)', async () => {
    expect((await run('bogus')).code).toBe(2);
    const bad = await run('generate', '--nope');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Unknown argument: nope/);
  });

  test('the generator version equals the package version', () => {
    expect(generatorVersion).toBe(JSON.parse(readFileSync(join(root, 'cli/package.json'), 'utf8')).version);
  });
});

describe('the real bin', () => {
  const bin = join(root, 'cli/bin/agentgen.js');

  test('npx-style run of cli/bin/agentgen.js generates and checks', () => {
    execFileSync(process.execPath, [bin, 'generate'], { cwd: dir, encoding: 'utf8' });
    expect(execFileSync(process.execPath, [bin, 'check'], { cwd: dir, encoding: 'utf8' })).toMatch(/up to date \(7 files\)/);
  });

  test('generate --watch regenerates on change and survives a bad spec', async () => {
    writeFileSync(join(dir, 'agentgen.yaml'), spec());
    const child = spawn(process.execPath, [bin, 'generate', '--watch'], { cwd: dir });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const waitFor = async (pattern: RegExp, from: number) => {
      for (let i = 0; i < 200 && !pattern.test(out.slice(from)); i++) await new Promise((r) => setTimeout(r, 25));
      expect(out.slice(from)).toMatch(pattern);
    };
    try {
      await waitFor(/watching agentgen\.yaml/, 0);
      let mark = out.length;
      writeFileSync(join(dir, 'agentgen.yaml'), 'agentgen: 1\nname: t\noperations:\n  q:\n    api_mode: sync\n');
      await waitFor(/unknown api_mode "sync"[\s\S]*watching/, mark);
      mark = out.length;
      writeFileSync(join(dir, 'agentgen.yaml'), spec().replace('async_stream_query', 'async_get_session'));
      await waitFor(/wrote {5}generated\/types\.ts[\s\S]*watching/, mark);
      expect(readFileSync(join(dir, 'generated/types.ts'), 'utf8')).toMatch(/AsyncGetSessionInput/);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await new Promise((r) => child.on('exit', (code) => r(code)))).toBe(0);
  });
});
