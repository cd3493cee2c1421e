/**
 * cli/bin/agentgen.js turns on Node's compile cache (Node 22.1 and later), as TypeScript's `tsc`
 * does: V8's compiled code of the CLI and of ts-morph is kept under the OS temp folder, and a later
 * start skips compiling it (measured: the standard `agentgen generate` at 0.68× the wall time on
 * Node 24). Proven here by where it writes: `<TMPDIR>/node-compile-cache`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { root } from '../tsc/compilers.mjs';
import { installedNode } from './node-binaries.js';

const bin = join(root, 'cli/bin/agentgen.js');
const node24 = '24.21.0';
/** Installing a release from npm happens once per machine (test/compat/node-binaries.ts). */
const timeoutMs = 330_000;

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs `agentgen generate` into a new folder with TMPDIR pointed at a new folder; returns that TMPDIR. */
function generateWith(node: string, env: Record<string, string> = {}): string {
  const temp = mkdtempSync(join(tmpdir(), 'agentgen-compile-cache-'));
  temps.push(temp);
  const { NODE_COMPILE_CACHE: _ignored, ...inherited } = process.env;
  const run = spawnSync(node, [bin, 'generate', '--out', join(temp, 'out')], {
    encoding: 'utf8',
    env: { ...inherited, TMPDIR: temp, ...env },
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  expect(existsSync(join(temp, 'out/server.ts'))).toBe(true);
  return temp;
}

const cacheFiles = (temp: string): string[] => {
  const dir = join(temp, 'node-compile-cache');
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [];
};

describe('the compile cache of the CLI', () => {
  test(`is written under the temp folder on Node ${node24}, and a second run works from it`, { timeout: timeoutMs }, async () => {
    const node = await installedNode(node24);
    const temp = generateWith(node);
    expect(cacheFiles(temp).length).toBeGreaterThan(0);
    const again = spawnSync(node, [bin, 'generate', '--out', join(temp, 'again')], { encoding: 'utf8', env: { ...process.env, TMPDIR: temp } });
    expect(again.status, again.stderr).toBe(0);
    expect(existsSync(join(temp, 'again/server.ts'))).toBe(true);
  });

  test('is off with NODE_DISABLE_COMPILE_CACHE=1', { timeout: timeoutMs }, async () => {
    const temp = generateWith(await installedNode(node24), { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(cacheFiles(temp)).toEqual([]);
  });

  test.runIf(Number(process.versions.node.split('.')[0]) < 22)('is not there on Node 20 (no such API), where the CLI runs as before', () => {
    const temp = generateWith(process.execPath);
    expect(cacheFiles(temp)).toEqual([]);
  });
});
