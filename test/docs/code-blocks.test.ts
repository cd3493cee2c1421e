/**
 * Every fenced code block of the documentation is checked by what its info string says it is
 * (CONTRIBUTING.md, "Docs are tested", is the reader's version of these rules):
 * - `yaml`: parses; a spec (it has `agentgen:`) is generated in memory and must succeed, or with
 *   `yaml fails` must be refused with the message of the `text` block that follows it;
 * - `json`: parses;
 * - `ts check`: type-checked (TypeScript 7, one program for all of them) beside the output of the
 *   standard surface `agent-app@2`, or with `ts check: spec above` beside that of the nearest spec
 *   block above it; `ts not-checked: <why>` is only read;
 * - `sh run`: run by bash in a fresh temporary folder, `npx agentgen` being this checkout's built
 *   CLI (`npm run build`); `sh not-run: <why>` says why it cannot run here;
 * - anything else (`text`, `dockerfile`, `hcl`…) is output or an example, and only read.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { generateFromText } from '../helpers/generate.js';
import { compilers, tscCommand, tscErrors } from '../tsc/compilers.mjs';
import { type CodeBlock, documentationFiles, parseBlocks, readDoc, root } from './markdown.js';

const shells = new Set(['sh', 'bash', 'shell', 'console']);
const typescripts = new Set(['ts', 'typescript', 'tsx', 'js', 'javascript']);
const standardSurface = 'agentgen: 1\nname: docs\nsurface: agent-app@2\n';
const cli = join(root, 'cli/bin/agentgen.js');

const blocks: CodeBlock[] = documentationFiles().flatMap((file) => parseBlocks(file, readDoc(file)).blocks);
const where = (block: CodeBlock): string => `${block.file}:${block.line}`;

/** Why a block's info string is not one the rules above accept, or undefined. */
function badInfo(block: CodeBlock): string | undefined {
  const { lang, attributes } = block;
  const reasoned = (word: string) => new RegExp(`^${word}: \\S.{8,}$`).test(attributes);
  if (shells.has(lang)) return attributes === 'run' || reasoned('not-run') ? undefined : '```sh needs `run` or `not-run: <why it cannot run here>`';
  if (typescripts.has(lang)) {
    if (lang !== 'ts') return 'TypeScript blocks are ```ts';
    return ['check', 'check: spec above'].includes(attributes) || reasoned('not-checked')
      ? undefined
      : '```ts needs `check`, `check: spec above` or `not-checked: <why>`';
  }
  if (lang === 'yaml') return attributes === '' || attributes === 'fails' ? undefined : '```yaml takes nothing, or `fails`';
  if (lang === 'yml') return 'YAML blocks are ```yaml';
  return attributes === '' ? undefined : `\`\`\`${lang} takes no attributes`;
}

function isSpec(block: CodeBlock): boolean {
  if (block.lang !== 'yaml') return false;
  if (block.attributes === 'fails') return true; // a spec that is refused, maybe for its YAML
  const value: unknown = parseYaml(block.text);
  return typeof value === 'object' && value !== null && Object.hasOwn(value, 'agentgen');
}

test('every code block says what it is (`sh run` / `sh not-run: why`, `ts check` / `ts not-checked: why`)', () => {
  expect(blocks.length).toBeGreaterThan(50);
  const bad = blocks.flatMap((block) => {
    const problem = badInfo(block);
    return problem === undefined ? [] : [`${where(block)}: ${problem} (info string: "${block.lang} ${block.attributes}")`];
  });
  expect(bad).toEqual([]);
});

test('the rules refuse a block that does not say what it is (so that a pass means something)', () => {
  const block = (lang: string, attributes: string): CodeBlock => ({ file: 'x.md', line: 1, lang, attributes, text: '' });
  expect(badInfo(block('sh', ''))).toMatch(/needs `run` or `not-run/);
  expect(badInfo(block('sh', 'not-run:'))).toMatch(/needs `run` or `not-run/);
  expect(badInfo(block('sh', 'not-run: needs credentials'))).toBeUndefined();
  expect(badInfo(block('bash', 'run'))).toBeUndefined();
  expect(badInfo(block('ts', ''))).toMatch(/needs `check`/);
  expect(badInfo(block('typescript', 'check'))).toMatch(/are ```ts/);
  expect(badInfo(block('ts', 'check: spec above'))).toBeUndefined();
  expect(badInfo(block('yaml', 'run'))).toMatch(/takes nothing, or `fails`/);
  expect(badInfo(block('text', 'anything'))).toMatch(/takes no attributes/);
});

describe('YAML and JSON blocks parse', () => {
  const data = blocks.filter((block) => (block.lang === 'yaml' && block.attributes !== 'fails') || block.lang === 'json');
  test.each(data.map((block) => [where(block), block] as const))('%s', (_, block) => {
    if (block.lang === 'json') expect(() => JSON.parse(block.text)).not.toThrow();
    else expect(() => parseYaml(block.text)).not.toThrow();
  });
});

describe('specs in the docs generate', () => {
  const specs = blocks.filter(isSpec);
  test('there are specs to generate', () => expect(specs.length).toBeGreaterThan(5));
  test.each(specs.map((block) => [where(block), block] as const))('%s', (_, block) => {
    if (block.attributes !== 'fails') {
      expect(generateFromText(block.text).files.length).toBeGreaterThan(0);
      return;
    }
    const fileBlocks = blocks.filter((b) => b.file === block.file);
    const output = fileBlocks[fileBlocks.indexOf(block) + 1];
    expect(output?.lang, `${where(block)}: a \`yaml fails\` block is followed by a \`text\` block with the error`).toBe('text');
    expect(() => generateFromText(block.text)).toThrow(output!.text.trim());
  });
});

/** The spec a `ts check` block is checked beside: the standard surface, or the nearest spec block above it. */
function specFor(block: CodeBlock): string {
  if (block.attributes !== 'check: spec above') return standardSurface;
  const above = blocks.filter((b) => b.file === block.file && b.line < block.line && isSpec(b) && b.attributes !== 'fails').at(-1);
  if (above === undefined) throw new Error(`${where(block)}: \`ts check: spec above\` with no spec block above it`);
  return above.text;
}

/** Runs a command (killed after a minute): its exit status and its output, stdout and stderr together. */
function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, timeout: 60_000, killSignal: 'SIGKILL' });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => resolve({ status: null, output: `${output}${error.message}` }));
    child.on('close', (status) => resolve({ status, output }));
  });
}

/** Writes each `ts check` block beside the generated output of its spec; returns the folder and which file is which block. */
function typecheckProject(snippets: readonly CodeBlock[]): { dir: string; origin: Map<string, CodeBlock> } {
  const dir = join(root, 'node_modules/.cache/agentgen-docs-typecheck');
  rmSync(dir, { recursive: true, force: true });
  const projects = new Map<string, string>();
  const origin = new Map<string, CodeBlock>();
  for (const block of snippets) {
    const spec = specFor(block);
    let project = projects.get(spec);
    if (project === undefined) {
      project = `spec-${projects.size}`;
      projects.set(spec, project);
      for (const file of generateFromText(spec).files) {
        mkdirSync(dirname(join(dir, project, 'generated', file.path)), { recursive: true });
        writeFileSync(join(dir, project, 'generated', file.path), file.contents);
      }
    }
    const name = `${project}/${block.file.replaceAll('/', '_').replace(/\.md$/, '')}-${block.line}.ts`;
    origin.set(name, block);
    writeFileSync(join(dir, name), `${block.text}\n`);
  }
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  const compilerOptions = {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023'],
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    // The workspace packages as their sources, so no build is needed and a stale one misleads nothing.
    customConditions: ['@agentgen/source'],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['spec-*/**/*.ts'] }, null, 2));
  return { dir, origin };
}

// The blocks that run: tsc and the CLI, each in processes of their own, all at once.
describe('code that runs', () => {
  const snippets = blocks.filter((block) => block.lang === 'ts' && block.attributes.startsWith('check'));
  const runnable = blocks.filter((block) => shells.has(block.lang) && block.attributes === 'run');

  test('there are TypeScript and shell blocks to run, and the CLI they run is built', () => {
    expect(snippets.length).toBeGreaterThan(3);
    expect(runnable.length).toBeGreaterThan(1);
    expect(existsSync(join(root, 'cli/dist/cli/src/main.js')), 'cli/dist is missing: npm run build').toBe(true);
  });

  test.concurrent(
    'TypeScript blocks type-check against the generated output (tsc 7, strict, NodeNext)',
    async () => {
      const { dir, origin } = typecheckProject(snippets);
      // TypeScript 7: one program for every block, several times faster than 5.9.
      const tsc = await tscCommand(compilers.find((c) => c.major === 7)!);
      const result = await run(tsc.file, [...tsc.args, '-p', dir, '--pretty', 'false'], dir);
      const errors = tscErrors(result.output).map((line) => {
        const at = /^(spec-\d+\/[^(]+)\((\d+),(\d+)\): (.*)$/.exec(line);
        const block = at === null ? undefined : origin.get(at[1]!);
        return block === undefined ? line : `${block.file}:${block.line + Number(at![2])}: ${at![4]}`;
      });
      expect(errors).toEqual([]);
      expect(result.status, result.output).toBe(0);
    },
    60_000,
  );

  test.concurrent.each(runnable.map((block) => [where(block), block] as const))(
    'shell block %s runs in a fresh folder',
    async (_, block) => {
      const folder = mkdtempSync(join(tmpdir(), 'agentgen-docs-'));
      try {
        // `npx agentgen` is this checkout's CLI; any other npx would reach the network.
        const preamble = [
          'set -euo pipefail',
          `npx() { if [ "$1" = agentgen ]; then shift; node ${JSON.stringify(cli)} "$@"; else echo "docs test: only npx agentgen runs here" >&2; return 127; fi; }`,
        ];
        const result = await run('bash', ['-c', [...preamble, block.text].join('\n')], folder, { PATH: process.env.PATH, HOME: folder, NO_COLOR: '1' });
        expect(result.status, `${where(block)} exited ${result.status}:\n${result.output}`).toBe(0);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
