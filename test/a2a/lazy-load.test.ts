/**
 * The A2A modules (runtime/src/a2a/) load only in a container whose spec declares the face: the
 * dispatcher imports the route when it is built with a face (server/a2a-mount.ts), and nothing a
 * server without one loads imports `a2a/`. Checked on the built runtime (dist, as a container
 * installs it), in a process that records every module it loads.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'agentgen-a2a-loads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The runtime's own modules the container loaded, as paths under its dist folder. */
function runtimeModulesLoaded(args: readonly string[]): string[] {
  const file = join(dir, `${args.join('-') || 'plain'}.txt`);
  const out = execFileSync(process.execPath, ['--import', './record-loads.mjs', './start-container.mjs', ...args], {
    cwd: import.meta.dirname,
    env: { ...process.env, LOADS_FILE: file },
    encoding: 'utf8',
  });
  expect(out.trim()).toBe('ready');
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((url) => /\/runtime\/dist\/(.+)$/.exec(url)?.[1])
    .filter((path) => path !== undefined);
}

describe('the A2A modules', () => {
  it('are not loaded by a container without an A2A face', () => {
    const loaded = runtimeModulesLoaded([]);
    expect(loaded).toContain('server/dispatcher.js');
    expect(loaded.filter((path) => path.startsWith('a2a/'))).toEqual([]);
  });

  it('are loaded by a container with one, and its card is served', () => {
    const loaded = runtimeModulesLoaded(['a2a']);
    expect(loaded).toEqual(expect.arrayContaining(['a2a/route.js', 'a2a/tasks.js', 'a2a/card.js']));
  });
});
