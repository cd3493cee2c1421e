/**
 * Issue 45 item 4: examples/next-chat as a user installs, builds and runs it. A copy of the example
 * in a temporary folder installs agentgen's packed packages (served for the @agentgen scope by a
 * registry on loopback, scripts/packed-packages.mjs) and everything else from npm at the example's
 * pinned versions; `agentgen check` (the packed CLI) finds its generated/ current; `next build`
 * bundles it with Next's default bundler (Turbopack) and no next.config; `next start` serves it on
 * loopback; the weather example's container (its offline model) runs behind `agentgen dev`. In
 * headless Chromium (Debian's, driven by playwright-core) the page, by its labels, asks "Weather in
 * Paris?" twice in one chat: each turn's get_weather call and answer are shown exactly once, and
 * both turns are in one session, the one chatSessionId derives from useChat's own chat id.
 *
 * Twice, on one install: with `ai` 7 and `@ai-sdk/react` 4 (the example's own pins; they need
 * Node.js 22, so next build and next start run under the official Node.js 22 of
 * test/compat/node-binaries.ts), then with `ai` 6 and `@ai-sdk/react` 3 put in their place by
 * `npm install`, built and run under this process's Node.js (20.19 or later: ai 6 runs there).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentClient } from '../../examples/weather-agent/generated/client.js';
import { chatSessionId } from '../../runtime/src/ui/ai-sdk.js';
import { childEnv, packedOnce, run, startScopeRegistry } from '../../scripts/packed-packages.mjs';
import { installedNode, nodeReleases } from '../compat/node-binaries.js';
import { chromiumPath } from '../helpers/chromium.js';
import { startWeatherBehindDev, type WeatherBehindDev } from '../helpers/weather-behind-dev.js';

const root = join(import.meta.dirname, '..', '..');
const exampleDir = join(root, 'examples', 'next-chat');
const resource = 'projects/demo/locations/us-central1/reasoningEngines/4242';
const node22 = nodeReleases.find((release) => release.startsWith('22.'))!;
/** What the offline model (examples/weather-agent/src/offline-model.ts) answers about Paris. */
const answer = 'It is clear and 18°C in Paris.';
const report = { status: 'success', city: 'Paris', sky: 'clear', temperatureC: 18 };
/** `ai` 6 and the @ai-sdk/react that depends on exactly it (`npm view @ai-sdk/react@3.0.328 dependencies`). */
const ai6 = ['ai@6.0.325', '@ai-sdk/react@3.0.328'];

if (chromiumPath === undefined) throw new Error("No chromium found: run scripts/test-setup.sh (it installs Debian's chromium package)");

const project = mkdtempSync(join(tmpdir(), 'agentgen-next-chat-'));
let registry: { url: string; close(): Promise<void> } | undefined;
let weather: WeatherBehindDev | undefined;
let context: BrowserContext | undefined;
let node = '';
const servers: ChildProcess[] = [];
/** Next.js never reports anonymous usage from a test; the agent is dev's, the token any. */
let nextEnv: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  // The example as a user has it: its files, never its node_modules or build output.
  cpSync(exampleDir, project, { recursive: true, filter: (source) => !/\/(node_modules|\.next)(\/|$)/.test(source) });
  const [packed, binary] = await Promise.all([packedOnce(), installedNode(node22)]);
  node = binary;
  registry = await startScopeRegistry(packed);
  writeFileSync(join(project, '.npmrc'), `@agentgen:registry=${registry!.url}\n`);
  const started = startWeatherBehindDev('offline', resource);
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], project);
  weather = await started;
  nextEnv = childEnv({ NEXT_TELEMETRY_DISABLED: '1', AGENT_BASE_URL: weather.baseUrl, AGENT_RESOURCE: resource, AGENT_TOKEN: 'local-token' });
  context = await chromium.launchPersistentContext(join(project, '.chromium-profile'), {
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 600_000);

afterAll(async () => {
  try {
    await context?.close();
    await Promise.all(servers.map(stop));
    await weather?.close();
    await registry?.close();
  } finally {
    // About 400 MB of node_modules: seconds on a loaded machine.
    rmSync(project, { recursive: true, force: true });
  }
}, 120_000);

/** Ends a `next start` and whatever it started (its own process group): SIGTERM, SIGKILL after 10 s. */
async function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null || server.pid === undefined) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-server.pid!, name);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

const versionOf = (name: string): string =>
  (JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** A port free on loopback now (next start takes a port number, not 0). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `next build` under `nodeBinary`, then `next start` on loopback: the page's URL once it answers. */
async function buildAndStart(nodeBinary: string): Promise<string> {
  rmSync(join(project, '.next'), { recursive: true, force: true });
  const nextBin = join(project, 'node_modules', 'next', 'dist', 'bin', 'next');
  const { stdout } = await run(nodeBinary, [nextBin, 'build'], project, nextEnv);
  // The default bundler, with nothing configured.
  expect(stdout).toContain('(Turbopack)');
  const port = await freePort();
  const server = spawn(nodeBinary, [nextBin, 'start', '--hostname', '127.0.0.1', '--port', String(port)], { cwd: project, env: nextEnv, detached: true });
  servers.push(server);
  let output = '';
  server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 30_000; ;) {
    if (server.exitCode !== null) throw new Error(`next start exited ${server.exitCode}:\n${output}`);
    const answered = await fetch(`${url}/`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return url;
    if (Date.now() > deadline) throw new Error(`next start did not answer on ${url} within 30 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Two turns of "Weather in Paris?" in one chat of the page at `url`, checked as a user sees them. */
async function twoTurns(url: string): Promise<void> {
  const page = await context!.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
  });
  const chatIds: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/chat')
      chatIds.push((JSON.parse(request.postData() ?? '{}') as { id: string }).id);
  });
  await page.goto(`${url}/`);
  const idle = () => page.waitForFunction(() => document.querySelector('main')?.dataset['status'] === 'ready');
  await idle();

  for (const turn of [1, 2]) {
    await page.getByLabel('Your message').fill('Weather in Paris?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForFunction((n) => document.querySelectorAll('#messages > li.assistant').length === n, turn, { timeout: 20_000 });
    await idle();
  }

  expect(errors).toEqual([]);
  // The page's own error line (Next.js adds a route announcer of role alert of its own, outside main).
  expect(await page.locator('main [role=alert]').count()).toBe(0);
  const shown = await page.$$eval('#messages > li', (items) =>
    items.map((li) => ({
      role: li.className,
      calls: Array.from(li.querySelectorAll('.tool-call')).map((call) => call.textContent),
      results: Array.from(li.querySelectorAll('.tool-result')).map((result) => result.textContent),
      texts: Array.from(li.querySelectorAll('.text')).map((text) => text.textContent),
    })),
  );
  const turn = [
    { role: 'user', calls: [], results: [], texts: ['Weather in Paris?'] },
    { role: 'assistant', calls: ['Tool call: get_weather {"city":"Paris"}'], results: [`Tool result ${JSON.stringify(report)}`], texts: [answer] },
  ];
  expect(shown).toEqual([...turn, ...turn]);
  // Nothing else on the page repeats them: the answer twice (once a turn), the call twice.
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText() is the text the page shows, which is what is counted
  const body = await page.locator('body').innerText();
  expect(body.split(answer).length - 1).toBe(2);
  expect(body.split('Tool call: get_weather').length - 1).toBe(2);

  // useChat's own id (none was passed), the same on both turns; not a session id the engine takes as it is.
  expect(chatIds).toHaveLength(2);
  expect(chatIds[1]).toBe(chatIds[0]);
  expect(chatIds[0]).toMatch(/^[A-Za-z0-9]{16}$/);
  // Both turns in the one session the route derived from it.
  const client = createAgentClient({ baseUrl: weather!.baseUrl, resourceName: resource, token: 'local-token' });
  const session = await client.async_get_session({ user_id: 'web-user', session_id: await chatSessionId('web-user', chatIds[0]!) });
  const asked = session.events.filter((event) => event.author === 'user').map((event) => event.content?.parts?.[0]?.text);
  expect(asked).toEqual(['Weather in Paris?', 'Weather in Paris?']);
  await page.close();
}

describe('examples/next-chat: next build (Turbopack, no config), next start, useChat in Chromium through agentgen dev', () => {
  it('installs as pinned, and its generated/ is what the packed agentgen writes (agentgen check)', async () => {
    // No bundler configuration: no next.config of any kind (Turbopack resolves the generated imports as they are).
    expect(readdirSync(project).filter((file) => file.startsWith('next.config'))).toEqual([]);
    expect(versionOf('next')).toBe('16.4.6');
    expect(versionOf('ai')).toBe('7.0.173');
    expect(versionOf('@ai-sdk/react')).toBe('4.0.177');
    const { stdout } = await run('npm', ['run', '--silent', 'check'], project, childEnv());
    expect(stdout).toContain('generated/ is up to date');
  }, 60_000);

  it('ai 7 and @ai-sdk/react 4 under Node.js 22: two turns in one chat', async () => {
    await twoTurns(await buildAndStart(node));
  }, 240_000);

  it('ai 6 and @ai-sdk/react 3 under this Node.js: two turns in one chat', async () => {
    await Promise.all(servers.map(stop));
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--save-exact', ...ai6], project);
    expect([versionOf('ai'), versionOf('@ai-sdk/react')]).toEqual(['6.0.325', '3.0.328']);
    await twoTurns(await buildAndStart(process.execPath));
  }, 240_000);
});
