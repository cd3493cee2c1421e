/** The `agentgen` command: in-process through `main`, and once as the real bin in a child process. */
import { spawn, execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
    expect(first.stderr).toBe('agentgen: no ./agentgen.yaml, so generating the standard agent-app surface into generated/\n');
    expect(readdirSync(join(dir, 'generated')).sort()).toEqual(
      ['class-methods.json', 'client-validators.ts', 'client.ts', 'index.ts', 'openapi.json', 'server.ts', 'types.ts', 'validators.ts'],
    );
    expect(first.stdout).toMatch(/^wrote {5}generated\/class-methods\.json$/m);
    expect(readFileSync(join(dir, 'generated/types.ts'), 'utf8')).toBe(readFileSync(join(root, 'generated/types.ts'), 'utf8'));
    expect(await run('check')).toEqual({
      code: 0,
      stdout: 'generated/ is up to date (8 files).\n',
      stderr: 'agentgen: no ./agentgen.yaml, so checking generated/ against the standard agent-app surface\n',
    });
    expect((await run('generate')).stdout).not.toMatch(/wrote/);
  });

  test('with no spec, generate refuses to replace output generated from a spec, unless --standard-surface', async () => {
    writeFileSync(join(dir, 'agentgen.yaml'), spec());
    expect((await run('generate', '--out', 'out')).code).toBe(0);
    const before = readdirSync(join(dir, 'out')).map((file) => [file, readFileSync(join(dir, 'out', file), 'utf8')]);
    rmSync(join(dir, 'agentgen.yaml')); // a checkout, a stash, the wrong folder
    const refused = await run('generate', '--out', 'out');
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'agentgen: out/ was generated from agentgen.yaml, and there is no ./agentgen.yaml here; not replacing it with the standard agent-app surface.\n' +
        'Run where the spec is, name it with --spec FILE, or pass --standard-surface to replace out/ with the standard surface.\n',
    });
    expect(readdirSync(join(dir, 'out')).map((file) => [file, readFileSync(join(dir, 'out', file), 'utf8')])).toEqual(before);

    const forced = await run('generate', '--out', 'out', '--standard-surface');
    expect(forced.code).toBe(0);
    expect(forced.stderr).toBe('agentgen: --standard-surface: generating the standard agent-app surface into out/\n');
    expect(readFileSync(join(dir, 'out/types.ts'), 'utf8')).toBe(readFileSync(join(root, 'generated/types.ts'), 'utf8'));
    // Now the folder holds the standard surface: a plain generate may rewrite it.
    expect(await run('generate', '--out', 'out')).toMatchObject({ code: 0, stderr: expect.stringMatching(/^agentgen: no \.\/agentgen\.yaml/) });
  });

  test('--standard-surface reads no spec file; with --spec or --watch it is a usage error', async () => {
    writeFileSync(join(dir, 'agentgen.yaml'), spec());
    expect((await run('generate', '--standard-surface')).code).toBe(0);
    expect(readFileSync(join(dir, 'generated/types.ts'), 'utf8')).toBe(readFileSync(join(root, 'generated/types.ts'), 'utf8'));
    expect(await run('check', '--standard-surface')).toMatchObject({ code: 0, stdout: 'generated/ is up to date (8 files).\n', stderr: '' });
    expect((await run('check')).code).toBe(1); // agentgen.yaml is not the standard surface
    expect(await run('generate', '--standard-surface', '--spec', 'agentgen.yaml')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agentgen: --standard-surface and --spec name two different sources; give one of them\nRun `agentgen --help` for usage.\n',
    });
    expect(await run('generate', '--watch', '--standard-surface')).toMatchObject({ code: 2, stderr: expect.stringMatching(/^agentgen: --watch follows a spec file; --standard-surface reads none\n/) });
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

  test('runtime: bundle writes the runtime under runtime/; switching back to package removes it, and check says so first', async () => {
    writeFileSync(join(dir, 'agentgen.yaml'), spec('runtime: bundle\n'));
    expect((await run('generate', '--out', 'out')).code).toBe(0);
    const bundled = readdirSync(join(dir, 'out/runtime'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(bundled).toEqual(expect.arrayContaining(['contract.ts', join('server', 'exchange.ts'), join('codegenv1', 'client.ts')]));
    expect(readFileSync(join(dir, 'out/server.ts'), 'utf8')).toContain("from './runtime/codegenv1/server.js'");
    writeFileSync(join(dir, 'out/runtime/server/mine.ts'), 'export const mine = 1;\n'); // not ours: never touched
    expect((await run('check', '--out', 'out')).code).toBe(0);

    const check = await run('check', '--out', 'out', '--runtime', 'package');
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(/^ {2}left over out\/runtime\/server\/exchange\.ts$/m);
    expect(check.stderr).not.toContain('mine.ts');

    const generate = await run('generate', '--out', 'out', '--runtime', 'package');
    expect(generate.stdout).toMatch(/^removed {3}out\/runtime\/contract\.ts$/m);
    expect(readFileSync(join(dir, 'out/server.ts'), 'utf8')).toContain("from '@agentgen/runtime/codegenv1/server'");
    expect(readdirSync(join(dir, 'out/runtime'), { recursive: true, encoding: 'utf8' })).toEqual(['server', join('server', 'mine.ts')]);
    expect((await run('check', '--out', 'out', '--runtime', 'package')).code).toBe(0);
  });

  test('every generated .ts header names the sha256 of the body under it', async () => {
    writeFileSync(join(dir, 'agentgen.yaml'), spec());
    await run('generate', '--out', 'out');
    for (const file of ['types.ts', 'validators.ts', 'index.ts', 'server.ts', 'client.ts', 'client-validators.ts']) {
      const text = readFileSync(join(dir, 'out', file), 'utf8');
      const [header, body] = [text.slice(0, text.indexOf('\n\n')), text.slice(text.indexOf('\n\n') + 2)];
      expect(header).toMatch(/^\/\/ t: generated by agentgen (\S+) from agentgen\.yaml \(model [0-9a-f]{12}, body [0-9a-f]{12}\)\.\n\/\/ Do not edit/);
      expect(header.match(/agentgen (\S+) from/)![1]).toBe(generatorVersion);
      expect(header.match(/body ([0-9a-f]{12})/)![1]).toBe(createHash('sha256').update(body).digest('hex').slice(0, 12));
    }
  });

  // types.ts, validators.ts and index.ts are printed through ts-morph; check vouches for them by the
  // digest in their header without printing them, and must still catch any edit.
  test.each([
    ['types.ts', (t: string) => t.replace(/^export type OperationName = /m, 'export type OperationName = never | ')],
    ['validators.ts', (t: string) => t.replace(/\n$/, '\n// a note\n')],
    ['index.ts', (t: string) => t.replace("export type * from './types.js';", "export * from './types.js';")],
    ['server.ts', (t: string) => t.replace('createContainer(operations', 'createContainer( operations')],
    ['types.ts', (t: string) => t.replace(`agentgen ${generatorVersion} `, 'agentgen 0.0.1 ')],
    ['types.ts', (t: string) => t.replace(/\(model [0-9a-f]{12}/, '(model 000000000000')],
    ['validators.ts', (t: string) => t.replace(/body [0-9a-f]{12}/, 'body 000000000000')],
    ['index.ts', (t: string) => t.replace('\n\n', '\n')],
  ])('check reports a hand-edited %s as different (edit %#)', async (file, edit) => {
    writeFileSync(join(dir, 'agentgen.yaml'), spec());
    await run('generate', '--out', 'out');
    expect(await run('check', '--out', 'out')).toMatchObject({ code: 0, stdout: 'out/ is up to date (8 files).\n' });
    const path = join(dir, 'out', file);
    const original = readFileSync(path, 'utf8');
    const edited = edit(original);
    expect(edited).not.toBe(original);
    writeFileSync(path, edited);
    const check = await run('check', '--out', 'out');
    expect(check.code).toBe(1);
    expect(check.stderr).toBe(`out/ is stale; run \`agentgen generate\`:\n  different out/${file}\n`);
    expect((await run('generate', '--out', 'out')).stdout).toMatch(new RegExp(`^wrote {5}out/${file.replace('.', '\\.')}$`, 'm'));
    expect(readFileSync(path, 'utf8')).toBe(original);
  });

  test('check with runtime: bundle compares the copied runtime too', async () => {
    writeFileSync(join(dir, 'agentgen.yaml'), spec('runtime: bundle\n'));
    await run('generate');
    expect((await run('check')).stdout).toMatch(/^generated\/ is up to date \(\d+ files\)\.\n$/);
    const path = join(dir, 'generated/runtime/server/errors.ts');
    writeFileSync(path, `${readFileSync(path, 'utf8')}\n`);
    expect((await run('check')).stderr).toMatch(/^ {2}different generated\/runtime\/server\/errors\.ts$/m);
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
    expect(await run('bogus')).toEqual({ code: 2, stdout: '', stderr: 'agentgen: unknown command "bogus"\nRun `agentgen --help` for usage.\n' });
    const bad = await run('generate', '--nope');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Unknown argument: nope/);
    expect((await run('generate', 'extra')).code).toBe(2);
    expect((await run('check', '--runtime', 'nope')).stderr).toMatch(/Invalid values:[\s\S]*Given: "nope", Choices: "package", "bundle"/);
    expect((await run('--spec', 'x.yaml', 'generate')).code).toBe(2);
  });

  test.each([
    ['generat', 'generate'],
    ['genrate', 'generate'],
    ['gen', 'generate'],
    ['Generate', 'generate'],
    ['chekc', 'check'],
    ['cehck', 'check'],
    ['manfest', 'manifest'],
    ['int', 'init'],
    ['conformence', 'conformance'],
    ['deb', 'dev'],
  ])('a mistyped verb (%s) suggests the nearest one (%s), exit 2', async (typed, meant) => {
    const result = await run(typed, '--out', 'x');
    expect(result).toEqual({ code: 2, stdout: '', stderr: `agentgen: unknown command "${typed}"; did you mean ${meant}?\nRun \`agentgen --help\` for usage.\n` });
  });

  test.each(['xyz', 'deploy', 'toString', '__proto__'])('%s is far from every verb: no suggestion', async (typed) => {
    const result = await run(typed);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`agentgen: unknown command "${typed}"\nRun \`agentgen --help\` for usage.\n`);
  });

  test.each(['--version', '-v'])('%s prints the version alone, exit 0', async (flag) => {
    expect(await run(flag)).toEqual({ code: 0, stdout: `${generatorVersion}\n`, stderr: '' });
    expect((await run(flag, 'generate')).code).toBe(2);
  });

  const verbs = ['generate', 'check', 'manifest', 'init', 'dev', 'conformance'];

  test('--help lists every verb with its line, each verb\'s --help shows the same line (exit 0)', async () => {
    for (const flag of ['--help', '-h']) {
      const help = await run(flag);
      expect(help.code).toBe(0);
      expect(help.stderr).toBe('');
      expect(help.stdout).toMatch(/^agentgen <command> \[options\]/);
      expect(help.stdout).toMatch(/-v, --version/);
      for (const verb of verbs) expect(help.stdout).toMatch(new RegExp(`^ {2}agentgen ${verb} +\\S`, 'm'));
    }
    // Widths differ between the list and a verb's page, so compare the words.
    const words = (text: string) => text.replace(/\s+/g, ' ');
    const listed = words((await run('--help')).stdout);
    for (const verb of verbs) {
      const page = (await run(verb, '--help')).stdout;
      const line = words(page.split('\n\n')[1]!).trim();
      expect(line.length).toBeGreaterThan(20);
      expect(listed).toContain(`agentgen ${verb} ${line}`);
    }
  });

  test('a bare agentgen is a usage error: the help on stderr, exit 2', async () => {
    const bare = await run();
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe('');
    expect(bare.stderr).toBe((await run('--help')).stdout);
  });

  test('the generator version equals the package version', () => {
    expect(generatorVersion).toBe(JSON.parse(readFileSync(join(root, 'cli/package.json'), 'utf8')).version);
  });
});

describe('the real bin', () => {
  const bin = join(root, 'cli/bin/agentgen.js');

  test('npx-style run of cli/bin/agentgen.js generates and checks', () => {
    execFileSync(process.execPath, [bin, 'generate'], { cwd: dir, encoding: 'utf8' });
    expect(execFileSync(process.execPath, [bin, 'check'], { cwd: dir, encoding: 'utf8' })).toMatch(/up to date \(8 files\)/);
  });

  test('the bin: --version, -v, a bare call, a typo, --help', () => {
    const bin_ = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8' });
    for (const flag of ['--version', '-v']) expect(bin_(flag)).toMatchObject({ status: 0, stdout: `${generatorVersion}\n`, stderr: '' });
    const bare = bin_();
    expect(bare).toMatchObject({ status: 2, stdout: '' });
    expect(bare.stderr).toMatch(/^agentgen <command> \[options\][\s\S]*agentgen conformance/);
    expect(bin_('generat')).toMatchObject({ status: 2, stdout: '', stderr: expect.stringMatching(/did you mean generate\?/) });
    expect(bin_('--help')).toMatchObject({ status: 0, stdout: bare.stderr, stderr: '' });
  });

  /** `agentgen generate --watch` in `dir`, its stdout and stderr in one string. */
  function watching() {
    const child = spawn(process.execPath, [bin, 'generate', '--watch'], { cwd: dir });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    return {
      get out() {
        return out;
      },
      /** Waits until the output after `from` matches. */
      async waitFor(pattern: RegExp, from: number) {
        for (let i = 0; i < 200 && !pattern.test(out.slice(from)); i++) await new Promise((r) => setTimeout(r, 25));
        expect(out.slice(from)).toMatch(pattern);
      },
      async stop() {
        const exit = new Promise((r) => child.on('exit', (code) => r(code)));
        child.kill('SIGTERM');
        expect(await exit).toBe(0);
      },
    };
  }

  const time = String.raw`\d\d:\d\d:\d\d`;

  test('generate --watch regenerates on change, one timestamped line with its duration each time, and survives a bad spec', async () => {
    writeFileSync(join(dir, 'agentgen.yaml'), spec());
    const watch = watching();
    try {
      await watch.waitFor(new RegExp(`^${time} watching agentgen\\.yaml \\(Ctrl-C to stop\\)$`, 'm'), 0);
      expect(watch.out).toMatch(new RegExp(`^${time} regenerated generated/ in \\d+ ms \\(8 written, 0 unchanged\\)\n${time} watching`));
      let mark = watch.out.length;
      writeFileSync(join(dir, 'agentgen.yaml'), 'agentgen: 1\nname: t\noperations:\n  q:\n    api_mode: sync\n');
      await watch.waitFor(
        new RegExp(`^${time} not regenerated: 1 problem in agentgen\\.yaml \\(generated/ left as it is\\)\nagentgen\\.yaml:5:15: operations\\.q\\.api_mode: unknown api_mode "sync"`, 'm'),
        mark,
      );
      mark = watch.out.length;
      writeFileSync(join(dir, 'agentgen.yaml'), spec().replace('async_stream_query', 'async_get_session'));
      await watch.waitFor(new RegExp(`^${time} regenerated generated/ in \\d+ ms \\([1-8] written, [0-7] unchanged\\)$`, 'm'), mark);
      expect(readFileSync(join(dir, 'generated/types.ts'), 'utf8')).toMatch(/AsyncGetSessionInput/);
    } finally {
      await watch.stop();
    }
  });

  test('generate --watch waits while the spec file is gone and never writes the standard surface', async () => {
    const watch = watching();
    try {
      await watch.waitFor(new RegExp(`^${time} no agentgen\\.yaml yet; waiting for it\n${time} watching agentgen\\.yaml`, 'm'), 0);
      expect(existsSync(join(dir, 'generated'))).toBe(false);
      let mark = watch.out.length;
      writeFileSync(join(dir, 'agentgen.yaml'), spec());
      await watch.waitFor(new RegExp(`^${time} regenerated generated/ in \\d+ ms \\(8 written, 0 unchanged\\)$`, 'm'), mark);
      const generated = readFileSync(join(dir, 'generated/types.ts'), 'utf8');
      expect(generated).toMatch(/^\/\/ t: generated by agentgen \S+ from agentgen\.yaml/);

      mark = watch.out.length;
      rmSync(join(dir, 'agentgen.yaml')); // a checkout of a branch without it
      await watch.waitFor(new RegExp(`^${time} agentgen\\.yaml is gone; waiting for it to come back \\(generated/ left as it is\\)$`, 'm'), mark);
      await new Promise((r) => setTimeout(r, 300));
      expect(watch.out.slice(mark)).not.toMatch(/regenerated/);
      expect(readFileSync(join(dir, 'generated/types.ts'), 'utf8')).toBe(generated);

      mark = watch.out.length;
      // Back, changed meanwhile, written under another name and renamed (as many editors save).
      writeFileSync(join(dir, 'agentgen.yaml.new'), spec().replace('async_stream_query', 'async_get_session'));
      renameSync(join(dir, 'agentgen.yaml.new'), join(dir, 'agentgen.yaml'));
      await watch.waitFor(new RegExp(`^${time} regenerated generated/ in \\d+ ms`, 'm'), mark);
      expect(readFileSync(join(dir, 'generated/types.ts'), 'utf8')).toMatch(/AsyncGetSessionInput/);
    } finally {
      await watch.stop();
    }
  });
});
