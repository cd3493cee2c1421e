/**
 * The runtime's HTTP passthrough in `agentgen dev`: `/reasoningEngines/v1/{resource}/api/{path}`
 * reaches the container's `/{path}` with any method: the runtime strips `/api`. Sources:
 * - google/agents-cli `src/google/agents/cli/scaffold/deployment_targets/agent_runtime/python/tests/load_test/load_test.py`
 *   posts to `…/api/run_sse` and `…/api/apps/app/users/{id}/sessions`, ADK's root routes `/run_sse`
 *   and `/apps/…` ("it proxies the container's HTTP routes (e.g. /run_sse) under the reasoningEngines
 *   .../api/<route> passthrough path");
 * - agents-cli `skills/google-agents-cli-deploy/references/agent-runtime.md`: the container's
 *   `/a2a/{app}/.well-known/agent-card.json` is reachable at `…/api/a2a/{app}/.well-known/agent-card.json`;
 * so the contract's own routes are `…/api/api/reasoning_engine` and `…/api/api/stream_reasoning_engine`.
 * `invokeReasoningEngine` in the REST reference. Driven with the generated client's `passthrough`.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { createAgentClient } from '../../generated/client.js';

const resource = 'projects/p/locations/l/reasoningEngines/42';
const card = { name: 'weather', url: 'http://example.invalid/a2a/app', skills: [] };

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}
const seen: Seen[] = [];
let container: Server;
let emulator: Emulator;
let releaseStream: (() => void) | undefined;

beforeAll(async () => {
  container = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.url === '/a2a/app/.well-known/agent-card.json') {
        res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'session=secret' }).end(JSON.stringify(card));
      } else if (req.url === '/a2a/app/' && req.method === 'POST') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { echoed: JSON.parse(body) } }));
      } else if (req.url === '/api/stream_reasoning_engine' && req.method === 'POST') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(`${JSON.stringify({ route: 'stream', body: JSON.parse(body) })}\n`);
      } else if (req.url === '/health' && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      } else if (req.url === '/a2a/app/v1/message:stream') {
        // One event now, the next only when the test has seen the first: it must arrive while the answer is open.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"n":1}\n\n');
        releaseStream = () => res.end('data: {"n":2}\n\n');
      } else {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such route"}');
      }
    });
  });
  await new Promise<void>((resolve) => container.listen(0, '127.0.0.1', resolve));
  const { port } = container.address() as AddressInfo;
  emulator = await startEmulator({ container: `http://127.0.0.1:${port}`, manifest: [], port: 0, resource, logger: () => {} });
});
afterAll(async () => {
  await emulator.close();
  await new Promise((resolve) => container.close(resolve));
});

const client = () => createAgentClient({ baseUrl: emulator.url, resourceName: resource, token: 'caller-token' });

describe('the passthrough route', () => {
  it('reaches GET /… on the container (the runtime strips /api), with the answer as the container gave it and no token or cookie', async () => {
    const response = await client().passthrough('a2a/app/.well-known/agent-card.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await response.json()).toEqual(card);
    const request = seen.at(-1);
    expect([request?.method, request?.url]).toEqual(['GET', '/a2a/app/.well-known/agent-card.json']);
    expect(request?.headers.authorization).toBeUndefined();
    // The platform's headers go on, as on the query routes: plain `traceparent` carries a support id.
    expect(request?.headers.traceparent).toMatch(/^[0-9a-f]{32}$/);
  });

  it('passes a POST body, its content type and the query string on', async () => {
    const message = { jsonrpc: '2.0', id: 1, method: 'message/send', params: { text: 'hi' } };
    const response = await client().passthrough('/a2a/app/?x=1', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
    });
    // The container saw `/a2a/app/?x=1`: not its POST route, so its own 404 comes back unchanged.
    expect([response.status, await response.text()]).toEqual([404, '{"error":"no such route"}']);
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/a2a/app/?x=1', body: JSON.stringify(message) });
    const ok = await client().passthrough('a2a/app/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) });
    expect(await ok.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { echoed: message } });
    expect(seen.at(-1)?.headers['content-type']).toBe('application/json');
  });

  it('streams the answer as it comes (a first event before the container ends)', async () => {
    const response = await client().passthrough('a2a/app/v1/message:stream', { method: 'POST', body: '{}' });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe('data: {"n":1}\n\n');
    releaseStream?.();
    let rest = '';
    for (let step = await reader.read(); !step.done; step = await reader.read()) rest += new TextDecoder().decode(step.value);
    expect(rest).toBe('data: {"n":2}\n\n');
  });

  it("reaches the contract's own routes as …/api/api/…, and any other container route, as the runtime does", async () => {
    const base = `${emulator.url}/reasoningEngines/v1/${resource}/api`;
    const auth = { authorization: 'Bearer t', 'content-type': 'application/json' };
    const envelope = { class_method: 'async_stream_query', input: { user_id: 'u1', message: 'hi' } };
    const stream = await fetch(`${base}/api/stream_reasoning_engine`, { method: 'POST', headers: auth, body: JSON.stringify(envelope) });
    expect([stream.status, await stream.text()]).toEqual([200, `${JSON.stringify({ route: 'stream', body: envelope })}\n`]);
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/stream_reasoning_engine' });
    // The same through the client: the path is the container's own.
    const viaClient = await client().passthrough('api/stream_reasoning_engine', { method: 'POST', body: JSON.stringify(envelope) });
    expect(viaClient.status).toBe(200);
    expect(seen.at(-1)?.url).toBe('/api/stream_reasoning_engine');
    const health = await fetch(`${base}/health`, { headers: auth });
    expect([health.status, await health.text()]).toEqual([200, 'ok']);
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/health' });
    // `…/api` itself is the container's root.
    await fetch(base, { headers: auth });
    expect(seen.at(-1)?.url).toBe('/');
  });

  it('needs a bearer token, reaches only this resource under its /api, and no other method', async () => {
    const base = `${emulator.url}/reasoningEngines/v1/${resource}`;
    expect((await fetch(`${base}/api/a2a/app/.well-known/agent-card.json`)).status).toBe(401);
    const auth = { authorization: 'Bearer t' };
    const other = await fetch(`${emulator.url}/reasoningEngines/v1/projects/p/locations/l/reasoningEngines/7/api/x`, { headers: auth });
    expect([other.status, ((await other.json()) as { error: { status: string } }).error.status]).toEqual([404, 'NOT_FOUND']);
    const before = seen.length;
    // `..` is resolved before routing: it cannot climb above the resource's /api to another path of dev.
    expect((await fetch(`${base}/api/../health`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${base}/api/%2e%2e/health`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${base}/apix/health`, { headers: auth })).status).toBe(404);
    const trace = await fetch(`${base}/api/x`, { method: 'OPTIONS', headers: auth });
    expect(trace.status).not.toBe(200);
    expect(seen.length).toBe(before);
  });

  it('refuses in the client a path that would leave /api/', async () => {
    expect(() => client().passthrough('../v1/x')).toThrow('passthrough path must stay under /api/');
    expect(() => client().passthrough('a#b')).toThrow('carry no fragment');
  });
});
