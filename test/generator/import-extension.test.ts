/**
 * Issue 45 item 1: generated code that bundlers resolve with no configuration. Relative imports
 * written Node-ESM style (`./validators.js`) name a file that does not exist (it is
 * `validators.ts`): TypeScript, esbuild, Vite and Rolldown map the one to the other, but Next.js's
 * Turbopack does not (vercel/next.js#82945) and webpack only with `extensionAlias`. So the output's
 * relative imports follow `import_extension` (`js`, `none`, `ts`), whose default is derived from
 * the tsconfig nearest above the output folder: `none` in a project that resolves like a bundler
 * (`moduleResolution: bundler`, `module: preserve`: create-next-app's and Vite's), `js` elsewhere.
 *
 * Checked here: the derivation (JSONC, `extends`); the built CLI's generate and check in a Next.js
 * style project; every relative import of `none` output (the runtime's bundled copy too) found as
 * webpack's and Turbopack's default resolution looks (the exact path, then with an extension
 * added, never swapped), which `js` output fails; that output bundled by esbuild, Rolldown and
 * Vite and type-checked by tsc 7 with moduleResolution Bundler, with no configuration.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build as esbuild } from 'esbuild';
import { rolldown } from 'rolldown';
import { build as viteBuild } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importExtensionFor } from '../../cli/src/import-extension-default.js';
import type { EmittedFile } from '../../generator/model.js';
import { generateFromText } from '../helpers/generate.js';
import { compilers, root, runTsc } from '../tsc/compilers.mjs';

// Inside the checkout, so that the output's packages (@agentgen/runtime, zod) resolve from its node_modules.
const work = join(root, 'node_modules/.cache/agentgen-import-extension');
const cli = join(root, 'cli/bin/agentgen.js');
/** What create-next-app writes (abridged): comments, a trailing comma, and a `paths` glob that a naive comment stripper would eat. */
const nextTsconfig = `{
  // Next.js
  "compilerOptions": {
    "target": "ES2017", "lib": ["dom", "dom.iterable", "esnext"], "strict": true, "noEmit": true,
    "module": "esnext", "moduleResolution": "bundler", "jsx": "preserve", "paths": { "@/*": ["./*"] },
  },
  "include": ["**/*.ts", "**/*.tsx"], /* the rest */
}
`;

beforeAll(() => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function project(name: string, files: Record<string, string>): string {
  const dir = join(work, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function writeOutput(dir: string, files: readonly EmittedFile[]): void {
  for (const file of files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.contents);
  }
}

/** Relative specifiers of `from '…'` in the output's TypeScript files that webpack's and Turbopack's default resolution would not find. */
function unresolved(dir: string): string[] {
  const missing: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        for (const [, specifier] of readFileSync(path, 'utf8').matchAll(/\bfrom\s+'(\.{1,2}\/[^']*)'/g)) {
          const target = join(dirname(path), specifier!);
          if (!['', '.ts', '.tsx', '.js', '.mjs'].some((extension) => existsSync(`${target}${extension}`) && !target.endsWith('/'))) {
            missing.push(`${path.slice(dir.length + 1)}: ${specifier}`);
          }
        }
      }
    }
  };
  walk(dir);
  return missing;
}

const node = (args: string[], cwd: string) =>
  new Promise<{ code: number; output: string }>((resolve) =>
    execFile(process.execPath, args, { cwd }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), output: `${stdout}${stderr}` }),
    ),
  );

describe('the default, from the nearest tsconfig.json', () => {
  test.each([
    ['moduleResolution bundler, as create-next-app writes it', { 'tsconfig.json': nextTsconfig }, 'none'],
    ['module preserve, which implies bundler resolution', { 'tsconfig.json': '{ "compilerOptions": { "module": "Preserve" } }' }, 'none'],
    [
      'bundler resolution from an extended file',
      {
        'tsconfig.json': '{ "extends": "./config/base", "compilerOptions": { "strict": true } }',
        'config/base.json': '{ "compilerOptions": { "moduleResolution": "Bundler" } }',
      },
      'none',
    ],
    [
      'an extended bundler base overridden by NodeNext',
      {
        'tsconfig.json': '{ "extends": ["./base.json"], "compilerOptions": { "moduleResolution": "NodeNext", "module": "NodeNext" } }',
        'base.json': '{ "compilerOptions": { "moduleResolution": "bundler" } }',
      },
      'js',
    ],
    ['NodeNext', { 'tsconfig.json': '{ "compilerOptions": { "module": "NodeNext", "moduleResolution": "NodeNext" } }' }, 'js'],
  ] as const)('%s: %s', (name, files, expected) => {
    const dir = project(name.replace(/\W+/g, '-'), files);
    mkdirSync(join(dir, 'src/generated'), { recursive: true });
    // The output folder is below the tsconfig: the nearest one above it decides.
    expect(importExtensionFor(join(dir, 'src/generated'))).toEqual({ extension: expected, tsconfig: join(dir, 'tsconfig.json') });
  });

  test('no tsconfig anywhere above: js', () => {
    expect(importExtensionFor('/')).toEqual({ extension: 'js', tsconfig: undefined });
  });
});

describe('agentgen generate and check in a Next.js project (the built CLI)', () => {
  test('writes imports without an extension, checks them, and --import-extension or the spec overrides the default', async () => {
    const dir = project('next-app', { 'tsconfig.json': nextTsconfig });
    const generated = await node([cli, 'generate', '--out', 'lib/agent'], dir);
    expect(generated.code, generated.output).toBe(0);
    const client = readFileSync(join(dir, 'lib/agent/client.ts'), 'utf8');
    expect(client).toContain("import * as v from './validators';");
    expect(client).not.toMatch(/from '\.\/[^']*\.js'/);
    expect((await node([cli, 'check', '--out', 'lib/agent'], dir)).output).toMatch(/is up to date/);
    const asJs = await node([cli, 'check', '--out', 'lib/agent', '--import-extension', 'js'], dir);
    expect([asJs.code, asJs.output]).toEqual([1, expect.stringContaining('different lib/agent/client.ts')]);
    writeFileSync(join(dir, 'agentgen.yaml'), 'agentgen: 1\nname: weather\nsurface: agent-app@2\nimport_extension: js\n');
    expect((await node([cli, 'generate', '--out', 'lib/agent'], dir)).code).toBe(0);
    expect(readFileSync(join(dir, 'lib/agent/client.ts'), 'utf8')).toContain("import * as v from './validators.js';");
  }, 60_000);
});

describe('output with import_extension: none', () => {
  const spec = (extra: string) => `agentgen: 1\nname: weather\nsurface: agent-app@2\n${extra}`;

  test('every relative import is found as webpack and Turbopack resolve by default; with js, none is', () => {
    const none = join(work, 'resolve-none');
    writeOutput(none, generateFromText(spec('import_extension: none\n')).files);
    expect(unresolved(none)).toEqual([]);
    const bundled = join(work, 'resolve-none-bundled');
    writeOutput(bundled, generateFromText(spec('import_extension: none\nruntime: bundle\n')).files);
    expect(readdirSync(join(bundled, 'runtime')).length).toBeGreaterThan(3);
    expect(unresolved(bundled)).toEqual([]);
    const js = join(work, 'resolve-js');
    writeOutput(js, generateFromText(spec('')).files);
    expect(unresolved(js)).toContain('client.ts: ./validators.js');
    // ts: the files as they are named.
    const ts = join(work, 'resolve-ts');
    writeOutput(ts, generateFromText(spec('import_extension: ts\n')).files);
    expect(readFileSync(join(ts, 'client.ts'), 'utf8')).toContain("import * as v from './validators.ts';");
    expect(unresolved(ts)).toEqual([]);
  });

  test('the client bundles for the browser with esbuild, Rolldown and Vite, with no configuration', async () => {
    const dir = join(work, 'bundle-none');
    writeOutput(dir, generateFromText(spec('import_extension: none\n')).files);
    const entry = join(dir, 'client.ts');
    const byEsbuild = await esbuild({ entryPoints: [entry], bundle: true, write: false, platform: 'browser', format: 'esm', logLevel: 'silent' });
    expect(byEsbuild.errors).toEqual([]);
    const byRolldown = await (await rolldown({ input: entry, platform: 'browser', logLevel: 'silent' })).generate({ format: 'esm' });
    expect(byRolldown.output[0].code).toContain('createAgentClient');
    const byVite = await viteBuild({
      root: dir,
      logLevel: 'silent',
      configFile: false,
      build: { write: false, lib: { entry, formats: ['es'], fileName: 'client' } },
    });
    const [viteOutput] = Array.isArray(byVite) ? byVite : [byVite];
    expect((viteOutput as { output: Array<{ code?: string }> }).output.some((chunk) => chunk.code?.includes('createAgentClient'))).toBe(true);
  }, 120_000);

  test('type-checks under tsc 7 with moduleResolution Bundler and the strict flags', async () => {
    const dir = join(work, 'tsc-none');
    writeOutput(join(dir, 'generated'), generateFromText(spec('import_extension: none\n')).files);
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2023', 'DOM'],
        types: ['node'],
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        verbatimModuleSyntax: true,
        noEmit: true,
        skipLibCheck: true,
      },
      include: ['generated/**/*.ts'],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc7 = compilers.find((compiler) => compiler.major === 7)!;
    const result = await runTsc(tsc7, ['-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], { timeoutMs: 120_000, cwd: dir });
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  }, 150_000);
});
