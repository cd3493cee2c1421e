/**
 * Issue 45 item 5: `npm run packs:serve` (scripts/serve-packs.mjs), the documented way to run `npm
 * create agentgen` and install the packages before they are published. Started as a user starts it:
 * it prints the registry and the commands to use; npm, pointed at it as the printed `export` says
 * (`npm_config_registry`), reads the packages' metadata and downloads the very tarballs that were
 * packed; SIGTERM stops it with exit 0. (`npm run release:check` and test/scaffold/ run the whole
 * `npm create` and install through the same registry code.)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnv, packedOnce, run } from '../../scripts/packed-packages.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const work = mkdtempSync(join(tmpdir(), 'agentgen-serve-packs-'));
let server: ChildProcess | undefined;

afterAll(() => {
  if (server?.exitCode === null) server.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

describe('npm run packs:serve', () => {
  it('serves the packed packages to npm at the address it prints, until SIGTERM', async () => {
    const packed = await packedOnce(); // what the script serves: packed here first, so its start is quick
    server = spawn(process.execPath, [join(root, 'scripts/serve-packs.mjs')], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    server.stderr!.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
    const registry = await new Promise<string>((resolve, reject) => {
      server!.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        printed += chunk;
        const url = /^ {2}export npm_config_registry=(\S+)$/m.exec(printed)?.[1];
        if (url !== undefined && printed.includes('Ctrl-C stops the registry.')) resolve(url);
      });
      server!.once('exit', (code) => reject(new Error(`serve-packs exited ${code} before serving:\n${printed}`)));
    });
    expect(registry).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(printed).toContain(`  npm create agentgen@latest my-agent -- --yes\n  cd my-agent && npm test\n`);

    // npm as the printed export points it, with a cache of its own: nothing answered from an earlier run.
    const env = childEnv({ npm_config_registry: registry, npm_config_cache: join(work, 'npm-cache') });
    const view = await run('npm', ['view', 'create-agentgen@latest', 'version', 'dependencies', '--json'], work, env);
    expect(JSON.parse(view.stdout)).toEqual({ version, dependencies: { '@agentgen/cli': version } });
    const cli = await run('npm', ['view', '@agentgen/cli', 'version'], work, env);
    expect(cli.stdout.trim()).toBe(version);
    // The tarball npm downloads is the one packed.
    const pack = await run('npm', ['pack', `create-agentgen@${version}`, '--json', '--pack-destination', work], work, env);
    const [downloaded] = JSON.parse(pack.stdout) as Array<{ integrity: string }>;
    expect(downloaded!.integrity).toBe(packed.get('create-agentgen')!.integrity);

    const exited = new Promise<number | null>((resolve) => server!.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 600_000);
});
