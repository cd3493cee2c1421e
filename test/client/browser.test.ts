/**
 * The bundled generated client (`runtime: bundle`, test/fixtures/bundle/expected) in a real
 * headless Chromium with nothing but zod: a node:http server on loopback serves a page whose
 * import map names zod's ESM builds (the client's validators are zod/mini), the generated .ts
 * files transpiled on the fly, and plays the public API the client calls. Chromium is the Debian package (scripts/test-setup.sh installs it;
 * `npm test` runs that first); playwright-core only drives it and never downloads a browser.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from '../helpers/chromium.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const generatedDir = join(repo, 'test/fixtures/bundle/expected');
const zodDir = join(repo, 'node_modules/zod');
const resourceName = 'projects/p/locations/l/reasoningEngines/7';
const apiPath = `/v1/${resourceName}`;

const events = [
  { id: 'e1', author: 'agent', content: { role: 'model', parts: [{ text: 'héllo 🦜' }] } },
  { id: 'e2', content: { parts: [{ function_call: { name: 'get_weather', args: { city: 'Paris' } } }] } },
  { id: 'e3', turn_complete: true },
];
const sessionBody = { id: 's1', appName: 'bundled-agent', userId: 'u1', lastUpdateTime: 1.5, state: null, events: [] };
const notFound = { code: 404, message: 'Session not found: s9', status: 'NOT_FOUND', details: [{ '@type': 'x' }] };

interface Served {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: string;
  /** 0 until the answer is complete. */
  status: number;
}

/** `/generated/<p>.js` → `<generatedDir>/<p>.ts` and `/node_modules/zod/<p>` → `<zodDir>/<p>`, never outside them. */
function fileUnder(dir: string, rest: string): string | undefined {
  const file = resolve(dir, decodeURIComponent(rest));
  return file.startsWith(dir + sep) && existsSync(file) ? file : undefined;
}

const page = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">{"imports": {"zod": "/node_modules/zod/index.js", "zod/mini": "/node_modules/zod/mini/index.js", "zod/v4/locales": "/node_modules/zod/v4/locales/index.js"}}</script>
<script type="module">
  import('/generated/client.js').then(
    (module) => { window.agent = module; window.agentState = 'ready'; },
    (error) => { window.agentState = 'failed: ' + (error && error.stack || error); },
  );
</script>
</head><body></body></html>`;

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** The public API: unary answers by classMethod, streams written event by event. */
async function api(res: ServerResponse, path: string, query: string, body: string): Promise<number> {
  const { classMethod, input } = JSON.parse(body) as { classMethod: string; input: Record<string, unknown> };
  const json = (status: number, value: unknown): number => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    return status;
  };
  if (path === `${apiPath}:query`) {
    if (classMethod === 'async_create_session') return input['user_id'] === 'missing' ? json(404, { error: notFound }) : json(200, { output: sessionBody });
    if (classMethod === 'ping') return json(200, { output: input['text'] === 'number' ? 42 : 'pong' });
    return json(404, { error: { code: 404, message: `no ${classMethod}`, status: 'NOT_FOUND' } });
  }
  if (path === `${apiPath}:streamQuery` && classMethod === 'async_stream_query') {
    const sse = query === 'alt=sse';
    res.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/json' });
    res.flushHeaders();
    const lines = input['message'] === 'fail' ? [events[0], { error: { code: 500, message: 'model overloaded', status: 'INTERNAL' } }] : events;
    for (const line of lines) {
      // One write per event with a pause, so the browser reads them as separate chunks.
      res.write(sse ? `data: ${JSON.stringify(line)}\n\n` : `${JSON.stringify(line)}\n`);
      await sleep(20);
    }
    res.end();
    return 200;
  }
  return json(404, { error: { code: 404, message: 'unknown route', status: 'NOT_FOUND' } });
}

async function handle(req: IncomingMessage, res: ServerResponse, body: string): Promise<number> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const path = url.pathname;
  if (req.method === 'POST' && path.startsWith('/v1/')) return api(res, path, url.search.slice(1), body);
  if (req.method === 'GET' && path === '/') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    return 200;
  }
  const generated =
    req.method === 'GET' && path.startsWith('/generated/') && path.endsWith('.js')
      ? fileUnder(generatedDir, `${path.slice('/generated/'.length, -'.js'.length)}.ts`)
      : undefined;
  if (generated !== undefined) {
    const { outputText } = ts.transpileModule(readFileSync(generated, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      fileName: generated,
    });
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(outputText);
    return 200;
  }
  const zod =
    req.method === 'GET' && path.startsWith('/node_modules/zod/') && path.endsWith('.js')
      ? fileUnder(zodDir, path.slice('/node_modules/zod/'.length))
      : undefined;
  if (zod !== undefined) {
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(readFileSync(zod));
    return 200;
  }
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not served');
  return 404;
}

let server: Server | undefined;
let origin = '';
const served: Served[] = [];
let context: BrowserContext | undefined;
let tab: Page | undefined;
let profile: string | undefined;
const pageErrors: string[] = [];
/** Every URL the browser requested, from any origin (the server's log only sees its own). */
const browserRequests: string[] = [];

beforeAll(async () => {
  if (chromiumPath === undefined) {
    throw new Error(
      'Chromium is not installed (no /usr/bin/chromium, no chromium on PATH), and the browser test needs it. ' +
        'Run `bash scripts/test-setup.sh` (it installs the Debian package `chromium`; `npm test` runs it first).',
    );
  }
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const entry: Served = { method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, body, status: 0 };
      served.push(entry);
      handle(req, res, body).then(
        (status) => (entry.status = status),
        (error: unknown) => {
          entry.status = 500;
          res.destroy(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  });
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // A fresh profile each run: Chromium keeps no cache or state between runs.
  profile = mkdtempSync(join(tmpdir(), 'agentgen-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  context.on('request', (request) => browserRequests.push(request.url()));
  tab = context.pages()[0] ?? (await context.newPage());
  tab.on('pageerror', (error) => pageErrors.push(error.message));
  tab.on('console', (message) => {
    // The API's own error answers (404 on purpose) are logged by Chromium as failed loads; nothing else may be.
    if (message.type() === 'error' && !message.location().url.startsWith(`${origin}/v1/`)) {
      pageErrors.push(`${message.text()} (${message.location().url})`);
    }
  });
  await tab.goto(`${origin}/`);
  await tab.waitForFunction(() => (globalThis as { agentState?: string }).agentState !== undefined);
  expect(await tab.evaluate(() => (globalThis as { agentState?: string }).agentState)).toBe('ready');
});

afterAll(async () => {
  await context?.close();
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
  server?.closeAllConnections();
  await new Promise<void>((done) => (server === undefined ? done() : server.close(() => done())));
});

/** Runs `body` in the page with the generated module as `agent` and a client of the test server. */
async function inPage<T>(body: string, options: { sse?: boolean; validate?: boolean } = {}): Promise<T> {
  return (tab as Page).evaluate(
    async ([source, baseUrl, resource, sse, validate]) => {
      const agent = (globalThis as unknown as { agent: Record<string, unknown> }).agent;
      const create = agent['createAgentClient'] as (options: object) => unknown;
      const client = create({ baseUrl, resourceName: resource, token: 'tok', sse, validate });
      const run = new Function('agent', 'client', `return (async () => { ${source} })();`) as (a: unknown, c: unknown) => Promise<unknown>;
      return run(agent, client);
    },
    [body, origin, resourceName, options.sse === true, options.validate !== false] as const,
  ) as Promise<T>;
}

const apiCalls = (): Served[] => served.filter((entry) => entry.path.startsWith('/v1/'));

describe('the bundled generated client in Chromium, with only zod', () => {
  it('a unary call returns the validated output (camelCase normalised by the zod validator)', async () => {
    const before = apiCalls().length;
    const output = await inPage(`return await client.async_create_session({ user_id: 'u1' });`);
    expect(output).toEqual({ id: 's1', app_name: 'bundled-agent', user_id: 'u1', last_update_time: 1.5, events: [] });
    const calls = apiCalls().slice(before);
    expect(calls.map((c) => [c.method, c.path, c.authorization, c.status])).toEqual([['POST', `${apiPath}:query`, 'Bearer tok', 200]]);
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual({ classMethod: 'async_create_session', input: { user_id: 'u1' } });
  });

  it('a stream yields its events in order (NDJSON)', async () => {
    const before = apiCalls().length;
    const seen = await inPage(`
      const seen = [];
      for await (const event of client.async_stream_query({ user_id: 'u1', message: 'hi' })) seen.push(event);
      return seen;`);
    expect(seen).toEqual(events);
    expect(
      apiCalls()
        .slice(before)
        .map((c) => [c.path, c.status]),
    ).toEqual([[`${apiPath}:streamQuery`, 200]]);
  });

  it('a stream yields its events in order (?alt=sse)', async () => {
    const before = apiCalls().length;
    const seen = await inPage(
      `const seen = [];
      for await (const event of client.async_stream_query({ user_id: 'u1', message: 'hi' })) seen.push(event);
      return seen;`,
      { sse: true },
    );
    expect(seen).toEqual(events);
    expect(
      apiCalls()
        .slice(before)
        .map((c) => [c.path, c.status]),
    ).toEqual([[`${apiPath}:streamQuery?alt=sse`, 200]]);
  });

  it('input validation refuses bad input before sending (AgentValidationError)', async () => {
    const before = apiCalls().length;
    const result = await inPage<{ unary: string[]; stream: string[] }>(`
      const describe = (error) => [error instanceof agent.AgentValidationError ? 'AgentValidationError' : String(error), error.direction, error.message];
      const unary = await client.async_create_session({ user_id: 5 }).then(() => ['no error'], describe);
      const stream = await (async () => { for await (const e of client.async_stream_query({ user_id: 'u1' })) void e; return ['no error']; })().catch(describe);
      return { unary, stream };`);
    expect(result.unary).toEqual(['AgentValidationError', 'input', expect.stringMatching(/^Invalid input for async_create_session: user_id: /)]);
    expect(result.stream).toEqual(['AgentValidationError', 'input', expect.stringMatching(/^Invalid input for async_stream_query: message: /)]);
    expect(apiCalls().slice(before)).toEqual([]);
  });

  it('a result that fails its validator is an AgentValidationError', async () => {
    const result = await inPage(`
      return await client.ping({ text: 'number' }).then(() => ['no error'], (e) => [e instanceof agent.AgentValidationError, e.direction, e.message]);`);
    expect(result).toEqual([true, 'result', expect.stringMatching(/^Invalid result from ping: \(root\): /)]);
  });

  it('with validate: false, input is sent as given and the result comes back as answered', async () => {
    const before = apiCalls().length;
    const output = await inPage(`return await client.async_create_session({ user_id: 5 });`, { validate: false });
    // Not normalised: no validator ran on the result either.
    expect(output).toEqual(sessionBody);
    const calls = apiCalls().slice(before);
    expect(calls.map((c) => [c.path, c.status])).toEqual([[`${apiPath}:query`, 200]]);
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual({ classMethod: 'async_create_session', input: { user_id: 5 } });
  });

  it('an error body becomes AgentApiError, and so does an error line in a stream', async () => {
    const result = await inPage<{ unary: unknown; stream: unknown }>(`
      const fields = (e) => ({ isApiError: e instanceof agent.AgentApiError, name: e.name, httpStatus: e.httpStatus, code: e.code, status: e.status, message: e.message, details: e.details });
      const unary = await client.async_create_session({ user_id: 'missing' }).then(() => 'no error', fields);
      const seen = [];
      const stream = await (async () => { for await (const e of client.async_stream_query({ user_id: 'u1', message: 'fail' })) seen.push(e); return 'no error'; })().catch(fields);
      return { unary, stream: { seen, error: stream } };`);
    expect(result.unary).toEqual({ isApiError: true, name: 'AgentApiError', httpStatus: 404, ...notFound });
    expect(result.stream).toEqual({
      seen: [events[0]],
      error: { isApiError: true, name: 'AgentApiError', httpStatus: 200, code: 500, status: 'INTERNAL', message: 'model overloaded', details: [] },
    });
  });

  it('loaded modules only from the generated folder and zod, the client side only, without errors', () => {
    const loaded = served.filter((entry) => !entry.path.startsWith('/v1/') && entry.path !== '/');
    const outside = loaded.filter((entry) => !/^\/generated\/[\w/.-]+\.js$|^\/node_modules\/zod\/[\w/.-]+\.js$/.test(entry.path));
    expect(outside).toEqual([]);
    expect(served.filter((entry) => entry.status !== 200 && !entry.path.startsWith('/v1/'))).toEqual([]);
    // Nothing else reached the browser's network either: no other origin, no other path.
    expect(browserRequests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    expect(browserRequests.map((url) => url.slice(origin.length)).sort()).toEqual(served.map((entry) => entry.path).sort());
    const paths = loaded.map((entry) => entry.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/generated/client.js',
        '/generated/validators.js',
        '/generated/runtime/codegenv1/client.js',
        '/generated/runtime/client/client.js',
        '/generated/runtime/contract.js',
        '/node_modules/zod/mini/index.js',
      ]),
    );
    // The validators are zod/mini: classic zod is never loaded.
    expect(paths.filter((path) => path === '/node_modules/zod/index.js' || path.includes('/classic/'))).toEqual([]);
    // The client never pulls the server half (node: modules) or the package runtime.
    expect(paths.filter((path) => /server|node:|@agentgen/.test(path))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
