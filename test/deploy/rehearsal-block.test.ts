/**
 * Issue 45 item 5: docs/deploy.md's offline rehearsal ("Rehearse it offline") runs as written, so
 * it cannot rot again (it set a 5-character token, which `deploy` has refused since tokens of fewer
 * than 8 characters are taken for a mistake). The block is read from the page and run by bash,
 * `npx agentgen` being the built CLI, in a project of `agentgen init --template custom` (deployed
 * from source) whose `dist/main.mjs` is the greeting container of the control-plane tests (the
 * project is not installed or built here). It starts dev on its default port, 8600, as the page
 * says: the test says so when something else holds that port.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseBlocks } from '../docs/markdown.js';
import { bin, runCli } from './run-cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const greeting = join(root, 'test/emulator/fixtures/greeting-container.mjs');
let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentgen-rehearsal-'));
});

afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

/** The page's block under the heading "Rehearse it offline". */
function rehearsalBlock(): string {
  const page = readFileSync(join(root, 'docs/deploy.md'), 'utf8');
  const heading = page.indexOf('### Rehearse it offline');
  expect(heading, 'docs/deploy.md has no "### Rehearse it offline"').toBeGreaterThan(0);
  const headingLine = page.slice(0, heading).split('\n').length;
  const block = parseBlocks('docs/deploy.md', page).blocks.find((candidate) => candidate.lang === 'sh' && candidate.line > headingLine);
  expect(block?.text).toContain('npx agentgen deploy');
  return block!.text;
}

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

test("docs/deploy.md's offline rehearsal runs as written: two revisions deployed to dev, traffic split, status", async () => {
  const block = rehearsalBlock();
  const init = await runCli(['init', 'trip-agent', '--template', 'custom', '--no-install', '--yes'], { cwd: dir, timeoutMs: 60_000 });
  expect(init.code, init.stderr).toBe(0);
  const project = join(dir, 'trip-agent');
  writeFileSync(join(project, 'package-lock.json'), '{}\n'); // what `npm install` would have written; the Dockerfile copies it
  mkdirSync(join(project, 'dist'));
  copyFileSync(greeting, join(project, 'dist/main.mjs'));
  expect(await portIsFree(8600), 'port 8600 (dev default, which the block uses) is taken: stop what holds it').toBe(true);

  const script = [
    'set -euo pipefail',
    // The dev the block starts in the background stops with the script, however it ends: SIGTERM
    // to the script's process group (its own: detached below), which dev answers by stopping its
    // containers.
    // The script ignores that signal itself, and exits with the block's status.
    `trap 'status=$?; trap - EXIT; trap "" TERM; kill -TERM 0; exit $status' EXIT`,
    `npx() { if [ "$1" = agentgen ]; then shift; node ${JSON.stringify(bin)} "$@"; else echo "only npx agentgen runs here" >&2; return 127; fi; }`,
    block,
  ].join('\n');
  const ran = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn('bash', ['-c', script], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '', HOME: project, NO_COLOR: '1', GOOGLE_CLOUD_PROJECT_ID: 'demo-project' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 110_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
  expect(ran.code, ran.output).toBe(0);
  expect(ran.output).not.toMatch(/shorter than 8 characters/);
  // Two revisions, the second at 50 % of the traffic, as --status reports it.
  expect(ran.output).toMatch(/50\s*%/);
  expect(await portIsFree(8600), 'dev stopped with the block').toBe(true);
}, 120_000);
