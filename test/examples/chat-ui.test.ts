/**
 * Issue 33 item 3: examples/chat-ui renders a streamed turn in headless Chromium. The weather
 * example's container (its ADK agent with its offline model, AgentApp, its generated server)
 * behind `agentgen dev`; the chat-ui server on loopback in front of it, calling it through the
 * generated client; the page script built by the example's own build.mjs. The page, driven by
 * its labels as a user would, must show the user's message, the `get_weather` call with the
 * offline model's exact arguments, its result and the answer, once each; the tool call and its
 * result on screen while the agent's answer is still held back (the turn is streamed end to end).
 * Chromium is the Debian package, found as in test/client/ui-browser.test.ts.
 *
 * UPDATE_SCREENSHOT=1 writes examples/chat-ui/screenshot.png (the README shows it); otherwise the
 * screenshot goes to a temporary folder, only to prove the page renders.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatServer } from '../../examples/chat-ui/src/server.js';
import { type AgentClient, createAgentClient } from '../../examples/weather-agent/generated/client.js';
import { chromiumPath } from '../helpers/chromium.js';
import { startWeatherBehindDev, type WeatherBehindDev } from '../helpers/weather-behind-dev.js';

const root = join(import.meta.dirname, '..', '..');
const chatDir = join(root, 'examples', 'chat-ui');
const resource = 'projects/demo/locations/us-central1/reasoningEngines/4242';
/** What the offline model (examples/weather-agent/src/offline-model.ts) says about Paris. */
const answer = 'It is clear and 18°C in Paris.';
const report = { status: 'success', city: 'Paris', sky: 'clear', temperatureC: 18 };

let weather: WeatherBehindDev;
let client: AgentClient;
const servers: Server[] = [];
let chatUrl: string;
let context: BrowserContext | undefined;
const temp = mkdtempSync(join(tmpdir(), 'agentgen-chat-ui-'));
const pageErrors: string[] = [];
/** While set, the agent's stream is held after the tool's result, until it resolves (once). */
let held: Promise<void> | undefined;

/**
 * The client's `fetch`, holding a `:streamQuery` answer after the line with the tool's result
 * until `held` resolves: so the test can look at the page mid-turn. Everything passes unchanged.
 */
const holdingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const wait = held;
  if (wait === undefined || response.body === null || !String(input instanceof Request ? input.url : input).includes(':streamQuery')) return response;
  held = undefined;
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let rest = '';
  const lines = new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      rest += decoder.decode(chunk, { stream: true });
      for (let end = rest.indexOf('\n'); end >= 0; end = rest.indexOf('\n')) {
        const line = rest.slice(0, end + 1);
        rest = rest.slice(end + 1);
        controller.enqueue(encoder.encode(line));
        if (line.includes('"function_response"')) await wait;
      }
    },
    flush(controller) {
      if (rest !== '') controller.enqueue(encoder.encode(rest));
    },
  });
  return new Response(response.body.pipeThrough(lines), { status: response.status, headers: response.headers });
};

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  // The page script, built by the example's own build script.
  await promisify(execFile)(process.execPath, [join(chatDir, 'build.mjs'), join(temp, 'assets')]);

  weather = await startWeatherBehindDev('offline', resource);
  client = createAgentClient({ baseUrl: weather.baseUrl, resourceName: resource, token: 'local-token', fetch: holdingFetch });
  chatUrl = await listen(createChatServer({ client, assetsDir: join(temp, 'assets') }));

  context = await chromium.launchPersistentContext(join(temp, 'profile'), {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 720, height: 560 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 60_000);

afterAll(async () => {
  await context?.close();
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await weather?.close();
  rmSync(temp, { recursive: true, force: true });
});

/** The conversation as the page shows it: each item's kind, label and text. */
const shown = (page: Page) =>
  page.$$eval('#messages > li', (items) =>
    items.map((li) => ({ kind: li.className, label: li.querySelector('.role')!.textContent, text: li.lastChild!.textContent })),
  );

describe('examples/chat-ui in Chromium', () => {
  it('a turn streams into the page: the message, the tool call, its result and the answer, once', async () => {
    const page = await context!.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${chatUrl}/`);
    await page.waitForFunction(() => document.body.dataset['state'] === 'idle');
    await page.getByLabel('Your message').fill("What's the weather in Paris?");
    let releaseAnswer: () => void = () => {};
    held = new Promise<void>((resolve) => (releaseAnswer = resolve));
    await page.getByRole('button', { name: 'Send' }).click();
    // Streamed: the tool call and its result are on screen while the answer is still held back.
    await page.locator('#messages .tool-result').waitFor({ timeout: 15_000 });
    expect((await shown(page)).map((item) => item.kind)).toEqual(['user', 'tool-call', 'tool-result']);
    expect(await page.evaluate(() => document.body.dataset['state'])).toBe('running');
    releaseAnswer();
    await page.waitForFunction(() => document.body.dataset['state'] === 'idle' && document.querySelector('#messages .assistant') !== null);

    expect(pageErrors).toEqual([]);
    expect(await page.locator('#status').textContent()).toBe('');
    expect(await shown(page)).toEqual([
      { kind: 'user', label: 'You', text: "What's the weather in Paris?" },
      { kind: 'tool-call', label: 'Tool call: get_weather', text: '{"city":"Paris"}' },
      { kind: 'tool-result', label: 'Tool result', text: JSON.stringify(report) },
      { kind: 'assistant', label: 'Agent', text: answer },
    ]);
    const tool = page.locator('#messages .tool-call');
    expect(await tool.getAttribute('data-tool-call-id')).toBe(await page.locator('#messages .tool-result').getAttribute('data-tool-call-id'));
    // The answer once on the whole page.
    // biome-ignore lint/performance/useDomNodeTextContent: innerText is what the page shows (hidden text left out), the thing checked
    expect((await page.locator('body').innerText()).split(answer).length - 1).toBe(1);
    const file = process.env['UPDATE_SCREENSHOT'] === '1' ? join(chatDir, 'screenshot.png') : join(temp, 'screenshot.png');
    await page.screenshot({ path: file, fullPage: true });
    expect(readFileSync(file).subarray(1, 4).toString('latin1')).toBe('PNG');

    // A second turn in the same page continues the same session (one session per thread).
    await page.getByLabel('Your message').fill('And in Tokyo?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForFunction(() => document.body.dataset['state'] === 'idle' && document.querySelectorAll('#messages .assistant').length === 2);
    expect((await shown(page)).slice(4).map((item) => item.text)).toEqual([
      'And in Tokyo?',
      '{"city":"Tokyo"}',
      expect.stringContaining('"sky":"cloudy"'),
      'It is cloudy and 21°C in Tokyo.',
    ]);
    const { sessions } = await client.async_list_sessions({ user_id: 'web-user' });
    expect(sessions).toHaveLength(1);
    await page.close();
  }, 60_000);

  it('a final text that revises what streamed: the page shows the final text, not the replaced one', async () => {
    // The agent's stream as a model that revises its answer would send it: partials, then a different final text.
    const events = [
      { author: 'weather_agent', invocation_id: 'e-1', partial: true, content: { role: 'model', parts: [{ text: 'It is sunny in ' }] } },
      { author: 'weather_agent', invocation_id: 'e-1', partial: true, content: { role: 'model', parts: [{ text: 'Paris.' }] } },
      { author: 'weather_agent', invocation_id: 'e-1', content: { role: 'model', parts: [{ text: 'It is raining in Paris.' }] } },
    ];
    const revising: typeof fetch = async (input, init) => {
      if (!String(input instanceof Request ? input.url : input).includes(':streamQuery')) return fetch(input, init);
      return new Response(events.map((event) => `${JSON.stringify(event)}\n`).join(''), { headers: { 'content-type': 'application/json' } });
    };
    const revisingClient = createAgentClient({ baseUrl: weather.baseUrl, resourceName: resource, token: 'local-token', fetch: revising });
    const url = await listen(createChatServer({ client: revisingClient, assetsDir: join(temp, 'assets') }));
    const page = await context!.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${url}/`);
    await page.waitForFunction(() => document.body.dataset['state'] === 'idle');
    await page.getByLabel('Your message').fill('Paris?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForFunction(() => document.body.dataset['state'] === 'idle' && document.querySelector('#messages .assistant') !== null);
    expect(pageErrors).toEqual([]);
    expect((await shown(page)).map((item) => item.text)).toEqual(['Paris?', 'It is raining in Paris.']);
    // biome-ignore lint/performance/useDomNodeTextContent: innerText is what the page shows (hidden text left out), the thing checked
    expect(await page.locator('body').innerText()).not.toContain('sunny');
    await page.close();
  }, 60_000);

  it('an agent that cannot be reached: the page says so, and the server stays up', async () => {
    const dead = createAgentClient({ baseUrl: 'http://127.0.0.1:1', resourceName: resource, token: 'local-token' });
    const url = await listen(createChatServer({ client: dead, assetsDir: join(temp, 'assets') }));
    const page = await context!.newPage();
    await page.goto(`${url}/`);
    await page.waitForFunction(() => document.body.dataset['state'] === 'idle');
    await page.getByLabel('Your message').fill('Paris?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('#status').filter({ hasText: 'The agent failed:' }).waitFor();
    expect(await page.locator('#messages .assistant').count()).toBe(0);
    await page.close();
    expect((await fetch(`${url}/`)).status).toBe(200);
  }, 60_000);

  it('bad requests to the route: a clear answer each', async () => {
    const post = (body: string) => fetch(`${chatUrl}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const problem = async (response: Response) => [response.status, ((await response.json()) as { error: { message: string } }).error.message];
    const run = { threadId: 't', runId: 'r', state: {}, tools: [], context: [], forwardedProps: {} };
    expect(await problem(await fetch(`${chatUrl}/api/chat`))).toEqual([405, 'The chat route answers POST, not GET']);
    expect(await problem(await post('{'))).toEqual([400, 'The request body is not JSON']);
    expect((await problem(await post('{"messages": 3}')))[0]).toBe(400);
    expect(await problem(await post(JSON.stringify({ ...run, messages: [] })))).toEqual([400, 'The run has no user message with text to send to the agent']);
    expect(await problem(await post(JSON.stringify({ ...run, messages: [], pad: 'x'.repeat(1024 * 1024) })))).toEqual([
      413,
      'The request body is longer than 1048576 bytes',
    ]);
    expect(await problem(await fetch(`${chatUrl}/nothing`))).toEqual([404, 'Nothing at /nothing']);
    // Assets missing: says how to make them.
    const bare = await listen(createChatServer({ client, assetsDir: join(temp, 'none') }));
    expect(await problem(await fetch(`${bare}/chat.js`))).toEqual([404, `No ${join(temp, 'none', 'chat.js')}: run \`npm run build\` first`]);
  });
});
