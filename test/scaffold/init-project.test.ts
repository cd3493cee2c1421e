/**
 * `agentgen init` for a whole project, in-process and without installing (`--no-install`; the
 * install, the project's own test and its container are in create-project.test.ts): the folder
 * rules, the name rules, the questions asked only when someone can answer, and the files written.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type InitArgs, initCommand, type Terminal } from '../../cli/src/init-command.js';
import type { Io } from '../../cli/src/io.js';
import { main } from '../../cli/src/main.js';
import { agentIdentifier, imageName, imageUri, packageNameProblem } from '../../cli/src/scaffold/project-options.js';
import { scaffoldTemplates } from '../../cli/src/scaffold/scaffold-templates.js';
import { generatorVersion } from '../../generator/version.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'agentgen-init-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
function freshDir(): string {
  const dir = join(root, `case-${++count}`);
  mkdirSync(dir);
  return dir;
}

function capture(cwd: string): Io & { out: string; err: string } {
  const io = {
    cwd,
    out: '',
    err: '',
    stdout: (text: string) => void (io.out += text),
    stderr: (text: string) => void (io.err += text),
  };
  return io;
}

async function cli(cwd: string, ...args: string[]) {
  const io = capture(cwd);
  const code = await main(args, io);
  return { code, stdout: io.out, stderr: io.err };
}

/** The files under `dir` (no folders), as relative paths with `/`, sorted. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

describe('the project name', () => {
  test.each(['my-agent', '@team/my-agent', 'a', 'agent.v2', 'x~y_z'])('%s is a valid npm package name', (name) => {
    expect(packageNameProblem(name)).toBeUndefined();
  });
  test.each([
    ['', /empty/],
    ['My-Agent', /capital/],
    ['my agent', /may hold only/],
    ['.hidden', /starts with/],
    ['_x', /starts with/],
    ['a/b', /may hold only/],
    ['x'.repeat(215), /214/],
    ['node_modules', /reserved/],
    ['http', /built-in/],
    ['"; rm -rf /', /may hold only/],
    ['a\nb', /may hold only/],
  ])('%j is refused (%s)', (name, why) => {
    expect(packageNameProblem(name)).toMatch(why);
  });
  test('derived names: an ADK identifier and an image repository', () => {
    expect(agentIdentifier('@team/my-agent.v2')).toBe('my_agent_v2');
    expect(agentIdentifier('2d-agent')).toBe('agent_2d_agent');
    expect(imageName('@team/x~y')).toBe('x-y');
    expect(imageUri('@team/my-agent')).toBe('us-central1-docker.pkg.dev/${GOOGLE_CLOUD_PROJECT_ID}/agents/my-agent:${IMAGE_TAG}');
  });
});

describe('agentgen init --template', () => {
  test.each(['adk', 'custom'] as const)(
    '%s: writes every file of the template, a package.json pinned to this CLI, and a current generated/',
    async (template) => {
      const cwd = freshDir();
      const result = await cli(cwd, 'init', '--template', template, '--name', '@team/my-agent', '--no-install', 'agent');
      expect(result, result.stderr).toMatchObject({ code: 0 });
      expect(result.stdout).toContain(`created agent: @team/my-agent, ${template} template`);
      expect(result.stdout).toMatch(/next:\n {2}cd agent\n {2}npm install\n {2}npm test\n {2}npm run dev\n$/);
      const dir = join(cwd, 'agent');
      const written = files(dir);
      for (const target of Object.values(scaffoldTemplates[template])) expect(written).toContain(target);
      expect(written).toEqual(expect.arrayContaining(['package.json', 'generated/server.ts', 'generated/client.ts', 'generated/class-methods.json']));

      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
      expect(manifest['name']).toBe('@team/my-agent');
      expect(manifest['devDependencies']).toEqual({
        '@agentgen/cli': generatorVersion,
        '@types/node': expect.any(String),
        rolldown: expect.any(String),
        typescript: '5.9',
      });
      // The container is one bundle: what `npm start`, `npm run dev` and the Dockerfile run.
      expect(manifest['scripts']).toMatchObject({ build: expect.stringContaining('rolldown -c rolldown.config.mjs'), start: 'node dist/main.mjs' });
      expect(readFileSync(join(dir, 'Dockerfile'), 'utf8')).toMatch(/^CMD \["node", "dist\/main\.mjs"\]$/m);
      expect(manifest['dependencies']!['@agentgen/runtime']).toBe(generatorVersion);
      expect('@google/adk' in manifest['dependencies']!).toBe(template === 'adk');
      expect(readFileSync(join(dir, 'agentgen.yaml'), 'utf8')).toMatch(/^name: "@team\/my-agent"$/m);
      expect(readFileSync(join(dir, 'src/main.ts'), 'utf8')).toContain("const name = '@team/my-agent';");

      // generated/ is what `agentgen check` expects from the project's spec.
      const check = await cli(dir, 'check');
      expect(check, check.stderr).toMatchObject({ code: 0 });
      expect(check.stdout).toMatch(/generated\/ is up to date \(9 files\)/);
    },
  );

  test('the same spec gives the same bytes (deterministic)', async () => {
    const [a, b] = [freshDir(), freshDir()];
    for (const cwd of [a, b]) expect((await cli(cwd, 'init', '--template', 'adk', '--no-install', 'same')).code).toBe(0);
    for (const path of files(join(a, 'same'))) {
      expect(readFileSync(join(b, 'same', path), 'utf8'), path).toBe(readFileSync(join(a, 'same', path), 'utf8'));
    }
  });

  test('refuses a folder that is not empty, writing nothing; --force writes over files of the same names and keeps the others', async () => {
    const cwd = freshDir();
    writeFileSync(join(cwd, 'notes.txt'), 'mine');
    writeFileSync(join(cwd, 'README.md'), 'old');
    const refused = await cli(cwd, 'init', '--template', 'custom', '--name', 'kept', '--no-install');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/\. is not empty \(README\.md, notes\.txt\); .*--force/);
    expect(files(cwd)).toEqual(['README.md', 'notes.txt']);

    const forced = await cli(cwd, 'init', '--template', 'custom', '--name', 'kept', '--no-install', '--force');
    expect(forced.code).toBe(0);
    expect(readFileSync(join(cwd, 'notes.txt'), 'utf8')).toBe('mine');
    expect(readFileSync(join(cwd, 'README.md'), 'utf8')).toMatch(/^# kept\n/);
    expect(forced.stdout).toMatch(/next:\n {2}npm install\n/);
  });

  test('a folder whose name is no npm package name needs --name (no TTY: nothing is asked)', async () => {
    const cwd = freshDir();
    const result = await cli(cwd, 'init', '--template', 'adk', '--no-install', 'My Agent');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/the folder name "My Agent" is not a valid npm package name: it has capital letters; pass --name NAME/);
    expect(files(cwd)).toEqual([]);
    const named = await cli(cwd, 'init', '--template', 'adk', '--no-install', '--name', 'my-agent', 'My Agent');
    expect(named.code).toBe(0);
  });

  test('a bad --name or --template is a usage error', async () => {
    const cwd = freshDir();
    expect((await cli(cwd, 'init', '--template', 'adk', '--name', 'Bad Name', 'x')).stderr).toMatch(/--name "Bad Name" is not a valid npm package name/);
    const template = await cli(cwd, 'init', '--template', 'vue', 'x');
    expect(template.code).toBe(2);
    expect(template.stderr).toMatch(/Choices: "adk", "custom"/);
    expect(files(cwd)).toEqual([]);
  });

  test('project options without --template or a folder are a usage error; plain `init` still writes only agentgen.yaml', async () => {
    const cwd = freshDir();
    const result = await cli(cwd, 'init', '--yes');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--yes: only for a whole project/);
    expect((await cli(cwd, 'init', '--name', 'solo')).code).toBe(0);
    expect(files(cwd)).toEqual(['agentgen.yaml']);
  });
});

test('create-agentgen is released with the CLI: the same version, and it depends on exactly that CLI', () => {
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '../../create-agentgen/package.json'), 'utf8')) as Record<string, unknown>;
  expect(manifest).toMatchObject({ name: 'create-agentgen', version: generatorVersion, bin: { 'create-agentgen': 'bin/create-agentgen.js' } });
  expect(manifest['dependencies']).toEqual({ '@agentgen/cli': generatorVersion });
});

describe('questions, only when someone can answer', () => {
  /** A person at a terminal who gives these answers in order ('' takes the default); records the questions. */
  function person(answers: string[]): { terminal: Terminal; asked: string[] } {
    const asked: string[] = [];
    const terminal: Terminal = () => ({
      async ask(question, fallback, check) {
        for (;;) {
          asked.push(question);
          const answer = answers.shift();
          if (answer === undefined) throw new Error(`no answer left for ${question}`);
          const value = answer || fallback;
          if (check(value) === undefined) return value;
        }
      },
      close: () => {},
    });
    return { terminal, asked };
  }
  const args = (dir: string, more: Partial<InitArgs> = {}): InitArgs => ({ force: false, yes: false, install: false, dir, ...more });

  test('asks for the name and the template, asks again after a bad answer, and takes Enter for the default', async () => {
    const cwd = freshDir();
    const { terminal, asked } = person(['Not Valid', 'asked-agent', 'vue', '']);
    expect(await initCommand(args('p'), capture(cwd), terminal)).toBe(0);
    expect(asked.map((q) => q.split(' (')[0])).toEqual(['Project name', 'Project name', 'Template', 'Template']);
    expect(JSON.parse(readFileSync(join(cwd, 'p/package.json'), 'utf8'))).toMatchObject({
      name: 'asked-agent',
      dependencies: { '@google/adk': expect.any(String) },
    });
  });

  test('asks nothing with --yes, nor what a flag already says', async () => {
    const cwd = freshDir();
    const none = person([]);
    expect(await initCommand(args('a', { yes: true }), capture(cwd), none.terminal)).toBe(0);
    const flags = person(['']);
    expect(await initCommand(args('b', { template: 'custom' }), capture(cwd), flags.terminal)).toBe(0);
    expect(flags.asked.map((q) => q.split(' (')[0])).toEqual(['Project name']);
    expect(JSON.parse(readFileSync(join(cwd, 'b/package.json'), 'utf8'))).toMatchObject({ name: 'b' });
  });
});
