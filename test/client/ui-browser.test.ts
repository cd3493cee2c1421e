/**
 * Issue 33 item 1, "works in the browser": both UI entries bundled for the browser by esbuild
 * (from the runtime's sources, with `ai`'s own `readUIMessageStream`), run in headless Chromium
 * over a page served on loopback. A weather turn streamed as partial events becomes one assistant
 * message (call, result, answer once) and the AG-UI events of the same turn, in the page.
 * Chromium is the Debian package, as in test/client/browser.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from '../helpers/chromium.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

const entry = `
import { readUIMessageStream } from 'ai';
import { toUIMessageStream } from '@agentgen/runtime/ui/ai-sdk';
import { toAgUiEvents } from '@agentgen/runtime/ui/ag-ui';
async function* from(events) { for (const event of events) { await new Promise((r) => setTimeout(r, 1)); yield event; } }
globalThis.runTurn = async (events) => {
  let message;
  const errors = [];
  for await (const snapshot of readUIMessageStream({ stream: toUIMessageStream(from(events)), onError: (e) => errors.push(String(e)) })) message = snapshot;
  const agui = [];
  for await (const event of toAgUiEvents(from(events), { threadId: 't' })) agui.push(event.type);
  return { parts: message.parts, errors, agui };
};
globalThis.uiState = 'ready';
`;

const answer = 'It is clear in Paris';
const turn = [
  { author: 'weather_agent', content: { role: 'model', parts: [{ function_call: { id: 'c1', name: 'get_weather', args: { city: 'Paris' } } }] } },
  { author: 'weather_agent', content: { role: 'user', parts: [{ function_response: { id: 'c1', name: 'get_weather', response: { sky: 'clear' } } }] } },
  ...answer.split(/(?<= )/).map((word) => ({ author: 'weather_agent', partial: true, content: { role: 'model', parts: [{ text: word }] } })),
  { author: 'weather_agent', content: { role: 'model', parts: [{ text: answer }] }, turn_complete: true },
];

let server: Server | undefined;
let context: BrowserContext | undefined;
let profile: string | undefined;
const pageErrors: string[] = [];

beforeAll(async () => {
  const bundle = await build({
    stdin: { contents: entry, resolveDir: repo, sourcefile: 'ui-page.ts', loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    conditions: ['@agentgen/source', 'browser', 'import'],
  });
  const script = bundle.outputFiles[0]!.text;
  server = createServer((req, res) => {
    if (req.url === '/ui.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else if (req.url === '/')
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><link rel="icon" href="data:,"><script type="module" src="/ui.js"></script>');
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  profile = mkdtempSync(join(tmpdir(), 'agentgen-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const tab = context.pages()[0] ?? (await context.newPage());
  tab.on('pageerror', (error) => pageErrors.push(error.message));
  await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await tab.waitForFunction(() => (globalThis as { uiState?: string }).uiState === 'ready');
}, 60_000);

afterAll(async () => {
  await context?.close();
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
  server?.closeAllConnections();
  await new Promise<void>((done) => (server === undefined ? done() : server.close(() => done())));
});

describe('the UI adapters in Chromium', () => {
  it('a streamed weather turn: one message for the AI SDK, the AG-UI events in order', async () => {
    const tab = context!.pages()[0]!;
    const result = await tab.evaluate((events) => (globalThis as unknown as { runTurn: (e: unknown[]) => Promise<unknown> }).runTurn(events), turn);
    expect(pageErrors).toEqual([]);
    expect(result).toEqual({
      parts: [
        expect.objectContaining({ type: 'tool-get_weather', toolCallId: 'c1', state: 'output-available', input: { city: 'Paris' }, output: { sky: 'clear' } }),
        expect.objectContaining({ type: 'text', text: answer, state: 'done' }),
      ],
      errors: [],
      agui: [
        'RUN_STARTED',
        'TOOL_CALL_START',
        'TOOL_CALL_ARGS',
        'TOOL_CALL_END',
        'TOOL_CALL_RESULT',
        'TEXT_MESSAGE_START',
        ...answer.split(/(?<= )/).map(() => 'TEXT_MESSAGE_CONTENT'),
        'TEXT_MESSAGE_END',
        'RUN_FINISHED',
      ],
    });
  });
});
