/**
 * Issue 31 item 5: a CommonJS project as `npm init -y` (npm 11: `"type": "commonjs"`) and
 * `tsc --init` (TypeScript 5.9 and 7: `module: nodenext`, `verbatimModuleSyntax`, `types: []`) make
 * it, with no edit: `agentgen generate`, then a CommonJS `server.ts` that `require`s the generated
 * factory, compiled by `tsc` with the untouched tsconfig.json. The installed packages are another
 * project's node_modules (the packed tarballs, installed once by tarball-install.test.ts), linked in.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '../../scripts/packed-packages.mjs';
import { runTsc } from '../tsc/compilers.mjs';

type Compiler = Parameters<typeof runTsc>[0];

/**
 * CommonJS under `verbatimModuleSyntax`: `import … = require(…)` for values, `import type` for
 * types. No Node globals: the tsconfig that `tsc --init` writes has `types: []`. The one operation
 * the spec includes answers with what it was given, so the test can tell the answer came from here.
 */
export const commonJsServer = `import generated = require('./generated/index.js');
import type { AgentHandlers, Session } from './generated/index.js';

const handlers: AgentHandlers = {
  async_create_session({ user_id, session_id, state }): Session {
    return { id: session_id ?? 'cjs-1', app_name: 'commonjs', user_id, state: state ?? {}, events: [] };
  },
};

const server = generated.createAgentServer(handlers, { host: '127.0.0.1', port: 0 });
server.listen().then(({ port }) => console.log(JSON.stringify({ port })));
`;

export interface CommonJsProject {
  readonly dir: string;
  /** package.json as `npm init -y` wrote it. */
  readonly manifest: Record<string, unknown>;
  /** tsconfig.json as `tsc --init` wrote it. */
  readonly tsconfig: string;
  /** What `tsc` printed (nothing when it passed) and its exit code. */
  readonly tsc: { readonly status: number | null; readonly output: string };
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
  return { dir, manifest, tsconfig, tsc: { status: tsc.status, output: tsc.output } };
}
