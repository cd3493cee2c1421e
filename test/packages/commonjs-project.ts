/**
 * Issue 31 item 5: a CommonJS project as `npm init -y` (npm 11: `"type": "commonjs"`) and
 * `tsc --init` (TypeScript 5.9 and 7: `module: nodenext`, `verbatimModuleSyntax`, `types: []`) make
 * it, with no edit: `agentgen generate`, then a CommonJS `server.ts` that `require`s the generated
 * factory, compiled by `tsc` with the untouched tsconfig.json. The installed packages are another
 * project's node_modules (the packed tarballs, installed once by tarball-install.test.ts), linked in.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '../../scripts/packed-packages.mjs';
import { runTsc } from '../tsc/compilers.mjs';

type Compiler = Parameters<typeof runTsc>[0];

/**
 * The CommonJS `server.ts` of docs/generated-code.md ("In a CommonJS project"), read from the
 * page, so the project follows the docs alone: `import … = require(…)` for values, `import type`
 * for types, no top-level await. The one operation the spec includes answers with what it was
 * given, so the test can tell the answer came from here.
 */
export const commonJsServer = docsBlock(join(import.meta.dirname, '../../docs/generated-code.md'), '```ts not-checked: a CommonJS file');

/** The body of the fenced block whose opening line starts with `opening`. */
function docsBlock(page: string, opening: string): string {
  const text = readFileSync(page, 'utf8');
  const start = text.indexOf(`${opening}`);
  if (start === -1) throw new Error(`no block ${opening} in ${page}`);
  const body = text.indexOf('\n', start) + 1;
  return text.slice(body, text.indexOf('\n```', body) + 1);
}

/**
 * The copy step docs/generated-code.md gives for `"outDir": "dist"` (tsc does not copy
 * generated/package.json), run as the page writes it: the command after its `tsc &&`.
 */
export function copyGeneratedManifest(dir: string): void {
  const block = docsBlock(join(import.meta.dirname, '../../docs/generated-code.md'), '```sh not-run: a build step of your project');
  const command = block.trim().replace(/^tsc && /, '');
  const copied = spawnSync('sh', ['-c', command], { cwd: dir, encoding: 'utf8' });
  if (copied.status !== 0) throw new Error(`the documented copy step failed: ${copied.stderr}`);
}

export interface CommonJsProject {
  readonly dir: string;
  /** package.json as `npm init -y` wrote it. */
  readonly manifest: Record<string, unknown>;
  /** tsconfig.json as `tsc --init` wrote it. */
  readonly tsconfig: string;
  /** What `tsc` printed (nothing when it passed) and its exit code. */
  readonly tsc: { readonly status: number | null; readonly output: string };
  /** The same with `--outDir dist`, then the documented copy of generated/package.json. */
  readonly tscOutDir: { readonly status: number | null; readonly output: string };
}

/** `npm init -y`, `tsc --init`, a spec, `agentgen generate`, server.ts, `tsc`: the project in `dir`. */
export async function makeCommonJsProject(dir: string, installedModules: string, compiler: Compiler): Promise<CommonJsProject> {
  mkdirSync(dir, { recursive: true });
  await run('npm', ['init', '-y'], dir);
  const manifestPath = join(dir, 'package.json');
  const written = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
  // npm 11 writes `"type": "commonjs"`; npm 10 (bundled with Node 20) writes no type, which Node
  // and TypeScript also read as CommonJS: say it as npm 11 does, so both npm lines test the same.
  const manifest = 'type' in written ? written : { ...written, type: 'commonjs' };
  if (manifest !== written) writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);

  const init = await runTsc(compiler, ['--init'], { timeoutMs: 60_000, cwd: dir });
  if (init.status !== 0) throw new Error(`${compiler.name} --init failed:\n${init.output}`);
  const tsconfig = readFileSync(join(dir, 'tsconfig.json'), 'utf8');

  symlinkSync(installedModules, join(dir, 'node_modules'), 'dir');
  // `agentgen init` is tarball-install.test.ts's; this spec declares the one operation server.ts serves.
  writeFileSync(join(dir, 'agentgen.yaml'), 'agentgen: 1\nname: commonjs\nsurface: agent-app\ninclude: [async_create_session]\n');
  // `npx --no`: never fetch a package named `agentgen` (an unrelated one) if the bin were missing.
  await run('npx', ['--no', 'agentgen', 'generate'], dir);

  writeFileSync(join(dir, 'server.ts'), commonJsServer);
  const tsc = await runTsc(compiler, [], { timeoutMs: 120_000, cwd: dir });
  const outDir = await runTsc(compiler, ['--outDir', 'dist'], { timeoutMs: 120_000, cwd: dir });
  if (outDir.status === 0) copyGeneratedManifest(dir);
  return { dir, manifest, tsconfig, tsc: { status: tsc.status, output: tsc.output }, tscOutDir: { status: outDir.status, output: outDir.output } };
}
