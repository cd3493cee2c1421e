/**
 * Issue 45 item 5: the README's "In your own project" block runs as written (it packed into a
 * folder that did not exist, then went into one it never made). The block is read from README.md
 * and run by bash in a copy of the checkout (scripts/packed-packages.mjs's copyCheckout, so that
 * the packs' prepack builds leave the checkout's dist/ folders alone) whose parent is a fresh
 * folder: `..` is that folder, as it is a clone's parent for a user. zod and @google/adk come from
 * the configured registry (the npm cache is warm after `npm ci`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { childEnv, copyCheckout, publishedWorkspaces, repositoryRoot } from '../../scripts/packed-packages.mjs';
import { parseBlocks } from '../docs/markdown.js';

const work = mkdtempSync(join(tmpdir(), 'agentgen-readme-project-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The first shell block under the README's "## In your own project". */
function ownProjectBlock(): string {
  const readme = readFileSync(join(repositoryRoot, 'README.md'), 'utf8');
  const headingLine = readme.split('\n').indexOf('## In your own project') + 1;
  expect(headingLine, 'README.md has no "## In your own project"').toBeGreaterThan(0);
  const block = parseBlocks('README.md', readme).blocks.find((candidate) => candidate.lang === 'sh' && candidate.line > headingLine);
  expect(block?.text).toContain('npm pack');
  return block!.text;
}

test('README\'s "In your own project" block runs as written in a clone: packs, installs the tarballs, runs the CLI', async () => {
  const block = ownProjectBlock();
  const clone = join(work, 'agentgen');
  await copyCheckout(clone, publishedWorkspaces);
  const version = (JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { version: string }).version;
  const ran = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn('bash', ['-c', `set -euo pipefail\n${block}`], {
      cwd: clone,
      env: childEnv({ npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 400_000,
      killSignal: 'SIGKILL',
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.once('close', (code) => resolve({ code, output }));
  });
  expect(ran.code, ran.output).toBe(0);
  // The block's last line printed the installed CLI's version.
  expect(ran.output.trim().split('\n').at(-1)).toBe(version);
  expect(readdirSync(join(work, 'agentgen-packs')).sort()).toEqual(
    ['agentgen-agent-app', 'agentgen-cli', 'agentgen-runtime', 'create-agentgen'].map((name) => `${name}-${version}.tgz`),
  );
  const installed = (name: string) =>
    (JSON.parse(readFileSync(join(work, 'my-agent/node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  expect(['@agentgen/runtime', '@agentgen/agent-app', '@agentgen/cli'].map(installed)).toEqual([version, version, version]);
}, 420_000);
