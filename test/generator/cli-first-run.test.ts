/**
 * The first hour with the CLI: a mistyped option gets a suggestion, `check` and `generate` agree
 * when there is no spec, and `init` writes the surface every other starting point uses.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { agentAppSurfaces } from '../../contract/index.js';
import { type CliRun, runCli } from '../helpers/run-cli.js';
import { root } from './golden-cases.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentgen-first-run-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = (...argv: string[]): Promise<CliRun> => runCli(dir, argv);

const usage = (message: string) => `agentgen: ${message}\nRun \`agentgen --help\` for usage.\n`;

describe('a mistyped option suggests the nearest one, as a mistyped verb does', () => {
  test.each([
    // Plain verbs: args.ts leaves an unknown option to yargs.
    [['generate', '--spc', 'x.yaml'], 'Unknown argument: spc; did you mean --spec?'],
    [['check', '--out=gen', '--runtme', 'bundle'], 'Unknown argument: runtme; did you mean --runtime?'],
    [['init', '--forse'], 'Unknown argument: forse; did you mean --force?'],
    // Verbs that register themselves with yargs.
    [['breaking', 'a.yaml', 'b.yaml', '--formt', 'json'], 'Unknown argument: formt; did you mean --format?'],
    [['conformance', '--url', 'http://127.0.0.1:1', '--sampels', 's.json'], 'Unknown argument: sampels; did you mean --samples?'],
    [['generate', '--spc', 'x.yaml', '--ot', 'gen'], 'Unknown arguments: spc, ot; did you mean --spec for --spc, --out for --ot?'],
  ])('%j', async (argv, message) => {
    expect(await run(...argv)).toEqual({ code: 2, stdout: '', stderr: usage(message) });
  });

  test('an option far from every declared one gets no suggestion; the forms yargs accepts are not mistaken for typos', async () => {
    expect(await run('generate', '--xyz')).toEqual({ code: 2, stdout: '', stderr: usage('Unknown argument: xyz') });
    expect((await run('generate', '--standardSurface', '--no-watch')).code).toBe(0);
  });
});

describe('with no spec file, check and generate agree', () => {
  test('output generated from a spec: check refuses as generate does, and says what works', async () => {
    writeFileSync(join(dir, 'agentgen.yaml'), 'agentgen: 1\nname: t\nsurface: agent-app\ninclude: [async_stream_query]\n');
    expect((await run('generate', '--out', 'out')).code).toBe(0);
    rmSync(join(dir, 'agentgen.yaml'));

    const check = await run('check', '--out', 'out');
    expect(check).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'agentgen: out/ was generated from agentgen.yaml, and there is no ./agentgen.yaml here; not checking it against the standard agent-app surface.\n' +
        'Run where the spec is, name it with --spec FILE, or pass --standard-surface to check out/ against the standard surface.\n',
    });
    expect(check.stderr).not.toMatch(/run `agentgen generate`/);
    expect((await run('generate', '--out', 'out')).stderr).toMatch(/not replacing it with the standard agent-app surface/);

    // What the messages name works: the standard surface by name, for both.
    expect(await run('check', '--out', 'out', '--standard-surface')).toMatchObject({ code: 1, stderr: expect.stringMatching(/out\/ is stale/) });
    expect((await run('generate', '--out', 'out', '--standard-surface')).code).toBe(0);
    expect(await run('check', '--out', 'out')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^out\/ is up to date/) });
  });
});

describe('init', () => {
  const surfaceOf = (spec: string) => /^surface: (\S+)$/m.exec(spec)?.[1];

  test('writes the newest surface, the one the project templates use', async () => {
    expect((await run('init', '--name', 'a')).code).toBe(0);
    const written = surfaceOf(readFileSync(join(dir, 'agentgen.yaml'), 'utf8'));
    expect(written).toBe(Object.keys(agentAppSurfaces).at(-1));
    expect(written).toBe(surfaceOf(readFileSync(join(root, 'templates/scaffold/adk/agentgen.yaml.hbs'), 'utf8')));
    const manifest = await run('manifest');
    expect(JSON.parse(manifest.stdout)).toHaveLength(agentAppSurfaces['agent-app@2'].length);
  });
});
