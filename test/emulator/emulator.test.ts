/** `agentgen dev` in front of a hand-written container, driven with raw HTTP requests (curl-like). */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseTraceparent } from '@agentgen/runtime/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ManifestEntry } from '../../contract/index.js';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { startTestContainer, type TestContainer } from './container-fixture.js';

const resource = 'projects/p/locations/l/reasoningEngines/9';
const manifest: ManifestEntry[] = [
  { name: 'echo', api_mode: '', description: 'Echoes.', parameters: { type: 'object', properties: {}, required: [] } },
  { name: 'async_echo', api_mode: 'async' },
  { name: 'query', api_mode: '' },
  { name: 'fail', api_mode: '' },
  { name: 'not_json', api_mode: '' },
  { name: 'no_output', api_mode: 'async' },
  { name: 'stream_query', api_mode: 'stream' },
  { name: 'awkward', api_mode: 'async_stream' },
  { name: 'endless', api_mode: 'async_stream' },
  { name: 'broken', api_mode: 'async_stream' },
  { name: 'gated', api_mode: 'async_stream' },
  { name: 'error_line', api_mode: 'async_stream' },
  { name: 'stream_fail', api_mode: 'stream' },
  { name: 'flood', api_mode: 'async_stream' },
];

let container: TestContainer;
let emulator: Emulator;
const logs: string[] = [];
let extra: Emulator | undefined;

beforeAll(async () => {
  container = await startTestContainer();
  emulator = await startEmulator({ container: container.url, manifest, port: 0, resource, logger: (line) => logs.push(line) });
});
afterAll(async () => {
  await emulator.close();
  await container.close();
});
afterEach(async () => {
  await extra?.close();
  extra = undefined;
});

const base = (): string => `${emulator.url}/v1/${resource}`;

function post(url: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: 'Bearer test-token', 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal,
  });
}

async function status(response: Response): Promise<{ http: number; error: { code: number; message: string; status: string; details: unknown[] } }> {
  const body = (await response.json()) as { error: { code: number; message: string; status: string; details: unknown[] } };
  return { http: response.status, error: body.error };
}

describe('unary calls (:query)', () => {
  it('forwards {class_method, input} as a JSON-encoded string to /api/reasoning_engine and answers {output}', async () => {
    const before = container.received.length;
    const response = await post(`${base()}:query`, { classMethod: 'echo', input: { user_id: 'u1' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ output: { echo: { class_method: 'echo', input: { user_id: 'u1' } } } });
    const got = container.received[before];
    expect(got?.path).toBe('/api/reasoning_engine');
    expect(JSON.parse(got?.raw ?? '')).toBe(JSON.stringify({ class_method: 'echo', input: { user_id: 'u1' } }));
    expect(got?.headers.authorization).toBeUndefined();
    expect(logs.at(-1)).toMatch(/^POST :query echo \(""\) 200 \d+\.\d ms support id [0-9a-f]{32}$/);
  });

  it('forwards with the doubled Content-Type the runtime sends (google/adk-js PR #440), on both routes', async () => {
    const before = container.received.length;
    await post(`${base()}:query`, { classMethod: 'echo', input: {} });
    await (await post(`${base()}:streamQuery`, { classMethod: 'stream_query', input: {} })).text();
    const [unary, stream] = container.received.slice(before);
    expect([unary?.path, unary?.headers['content-type']]).toEqual(['/api/reasoning_engine', 'application/json,application/json']);
    expect([stream?.path, stream?.headers['content-type']]).toEqual(['/api/stream_reasoning_engine', 'application/json,application/json']);
  });

  it('takes as JSON what the container takes: parameters, +json types, a doubled type', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/vnd.api+json', 'application/json,application/json']) {
      const response = await post(`${base()}:query`, { classMethod: 'echo', input: {} }, { 'content-type': type });
      expect([type, response.status]).toEqual([type, 200]);
    }
  });

  it('accepts class_method, and an async method on :query', async () => {
    const response = await post(`${base()}:query`, { class_method: 'async_echo', input: {} });
    expect(await response.json()).toEqual({ output: { echo: { class_method: 'async_echo', input: {} } } });
    expect(logs.at(-1)).toMatch(/^POST :query async_echo \("async"\) 200 /);
  });

  it('forwards an object body with forwardSyncAsString off', async () => {
    extra = await startEmulator({ container: container.url, manifest, port: 0, resource, forwardSyncAsString: false, logger: () => {} });
    const before = container.received.length;
    await post(`${extra.url}/v1/${resource}:query`, { classMethod: 'echo', input: { a: 1 } });
    expect(JSON.parse(container.received[before]?.raw ?? '')).toEqual({ class_method: 'echo', input: { a: 1 } });
  });

  it('defaults to "query" when no method is named, and forwards no input when none was sent', async () => {
    const before = container.received.length;
    const response = await post(`${base()}:query`, {});
    expect(await response.json()).toEqual({ output: { echo: { class_method: 'query' } } });
    expect(container.received[before]?.envelope).toEqual({ class_method: 'query' });
  });

  // The platform's wording, verbatim in its answers: keefmoon/agent-engine-bug-minimal-example,
  // README.md (gRPC `details`, `Error Details: Service Unavailable`), and a REST body quoting an
  // AdkApp's `{"detail": "... 404 NOT_FOUND ..."}` after `Error Details: ` (see ../../emulator/google-api/status.ts).
  const platform =
    'Reasoning Engine Execution failed.\nPlease refer to our documentation ' +
    '(https://cloud.google.com/vertex-ai/generative-ai/docs/agent-engine/troubleshooting/use) ' +
    'for checking logs and other troubleshooting tips.\nError Details: ';

  it("maps a container failure to 400 FAILED_PRECONDITION in the platform's words, the container's body after Error Details", async () => {
    const { http, error } = await status(await post(`${base()}:query`, { classMethod: 'fail', input: {} }));
    expect([http, error.code, error.status, error.details]).toEqual([400, 400, 'FAILED_PRECONDITION', []]);
    expect(error.message).toBe(`${platform}{"detail": "handler exploded: KeyError user_id"}`);
    // What the platform does not say (the container's HTTP status, the route) is in the log line.
    expect(logs.at(-1)).toMatch(/^POST :query fail \(""\) 400 .* FAILED_PRECONDITION \(container answered HTTP 500 on \/api\/reasoning_engine\)$/);
  });

  it('treats a 2xx that is not {"output": ...} JSON as a container failure', async () => {
    const notJson = await status(await post(`${base()}:query`, { classMethod: 'not_json' }));
    expect(notJson.error).toMatchObject({
      status: 'FAILED_PRECONDITION',
      message: `${platform}The agent container answered not_json with a body that is not JSON: Internal Server Error`,
    });
    const noOutput = await status(await post(`${base()}:query`, { classMethod: 'no_output' }));
    expect(noOutput.error.message).toBe(`${platform}The agent container answered no_output without {"output": ...}: {"result": 1}`);
  });

  it('answers 503 UNAVAILABLE when the container is not reachable', async () => {
    const gone = await startTestContainer();
    await gone.close();
    extra = await startEmulator({ container: gone.url, manifest, port: 0, resource, logger: () => {} });
    const { http, error } = await status(await post(`${extra.url}/v1/${resource}:query`, { classMethod: 'echo' }));
    expect([http, error.status]).toEqual([503, 'UNAVAILABLE']);
    expect(error.message).toBe(`The agent container at ${gone.url} is not reachable (ECONNREFUSED)`);
  });
});

describe('refused requests (google.rpc.Status, container not called)', () => {
  const cases: Array<[string, string, string | object, number, string, string | RegExp]> = [
    ['bad JSON', ':query', '{"classMethod": ', 400, 'INVALID_ARGUMENT', /^Invalid JSON payload received: /],
    [
      'a body that is not an object',
      ':query',
      '[1]',
      400,
      'INVALID_ARGUMENT',
      'The request body must be a JSON object {"classMethod": ..., "input": {...}}, got an array',
    ],
    [
      'an unknown field',
      ':query',
      { classMethod: 'echo', inputs: {} },
      400,
      'INVALID_ARGUMENT',
      'Invalid JSON payload received. Unknown name "inputs": the body takes classMethod (or class_method) and input',
    ],
    [
      'a non-object input',
      ':query',
      { classMethod: 'echo', input: 'hi' },
      400,
      'INVALID_ARGUMENT',
      '"input" must be a JSON object of keyword arguments, got a string',
    ],
    [
      'an array input',
      ':streamQuery',
      { classMethod: 'awkward', input: [1] },
      400,
      'INVALID_ARGUMENT',
      '"input" must be a JSON object of keyword arguments, got an array',
    ],
    ['a non-string method', ':query', { classMethod: 5 }, 400, 'INVALID_ARGUMENT', '"classMethod" must be a string, got a number'],
    [
      'two spellings that disagree',
      ':query',
      { classMethod: 'echo', class_method: 'fail' },
      400,
      'INVALID_ARGUMENT',
      '"classMethod" (echo) and "class_method" (fail) disagree: send one of them',
    ],
    [
      'an undeclared method',
      ':query',
      { classMethod: 'nope' },
      404,
      'NOT_FOUND',
      'Method "nope" is not declared in the resource\'s classMethods. Declared for :query: echo, async_echo, query, fail, not_json, no_output.',
    ],
    ['__proto__', ':query', '{"classMethod": "__proto__"}', 404, 'NOT_FOUND', /^Method "__proto__" is not declared/],
    ['constructor', ':streamQuery', { classMethod: 'constructor' }, 404, 'NOT_FOUND', /^Method "constructor" is not declared/],
    [
      'a stream method on :query',
      ':query',
      { classMethod: 'awkward' },
      400,
      'FAILED_PRECONDITION',
      'Method "awkward" has api_mode "async_stream" and is served by :streamQuery, not :query',
    ],
    [
      'a unary method on :streamQuery',
      ':streamQuery',
      { classMethod: 'async_echo' },
      400,
      'FAILED_PRECONDITION',
      'Method "async_echo" has api_mode "async" and is served by :query, not :streamQuery',
    ],
  ];
  it.each(cases)('%s', async (_name, endpoint, body, http, rpc, message) => {
    const before = container.received.length;
    const result = await status(await post(`${base()}${endpoint}`, body));
    expect([result.http, result.error.code, result.error.status, result.error.details]).toEqual([http, http, rpc, []]);
    if (typeof message === 'string') expect(result.error.message).toBe(message);
    else expect(result.error.message).toMatch(message);
    expect(container.received.length).toBe(before);
  });

  it('refuses a body over the limit with 413 without reading it', async () => {
    const before = container.received.length;
    // Announce 64 MiB but send only a little: the answer must come from the declared length alone.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${base()}:query`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json', 'content-length': 64 * 1024 * 1024 },
      });
      req.on('response', (res) => {
        let body = '';
        res
          .setEncoding('utf8')
          .on('data', (text: string) => (body += text))
          .on('end', () => {
            resolve({ status: res.statusCode ?? 0, body });
            req.destroy();
          });
      });
      req.on('error', reject);
      req.write('{"classMethod": "echo", "input": {"pad": "');
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error).toMatchObject({
      code: 413,
      status: 'OUT_OF_RANGE',
      message: 'Request body of 67108864 bytes exceeds the limit of 16777216',
    });
    expect(container.received.length).toBe(before);
  });

  it('names the default when no method is given and it is not declared', async () => {
    extra = await startEmulator({ container: container.url, manifest: [{ name: 'awkward', api_mode: 'async_stream' }], port: 0, resource, logger: () => {} });
    const result = await status(await post(`${extra.url}/v1/${resource}:query`, { input: {} }));
    expect(result.error.message).toBe('No classMethod given, and the default for :query, "query", is not declared. No method is declared for :query.');
  });

  it('requires a bearer token, and the fixed one when given', async () => {
    const missing = await fetch(`${base()}:query`, { method: 'POST', body: '{}' });
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(await status(missing)).toMatchObject({ http: 401, error: { status: 'UNAUTHENTICATED' } });
    const basic = await post(`${base()}:query`, { classMethod: 'echo' }, { authorization: 'Basic dTpw' });
    expect(basic.status).toBe(401);
    extra = await startEmulator({ container: container.url, manifest, port: 0, resource, token: 's3cret', logger: () => {} });
    const url = `${extra.url}/v1/${resource}:query`;
    const wrong = await status(await post(url, { classMethod: 'echo' }));
    expect(wrong.error.message).toBe('The bearer token is not the one this emulator was started with (--token)');
    expect((await post(url, { classMethod: 'echo' }, { authorization: 'Bearer s3cret' })).status).toBe(200);
  });

  it('refuses a non-JSON content type, unknown paths, other resources and wrong HTTP methods', async () => {
    const form = await status(await post(`${base()}:query`, 'classMethod=echo', { 'content-type': 'application/x-www-form-urlencoded' }));
    expect([form.http, form.error.status]).toEqual([415, 'INVALID_ARGUMENT']);
    const auth = { authorization: 'Bearer t' };
    const other = await status(
      await fetch(`${emulator.url}/v1/projects/x/locations/l/reasoningEngines/1:query`, { method: 'POST', headers: auth, body: '{}' }),
    );
    expect([other.http, other.error.message]).toEqual([
      404,
      `Resource projects/x/locations/l/reasoningEngines/1 not found: agentgen dev has the engine it started with (${resource}) and those deployed to it (agentgen deploy --api-endpoint), each with its runtime revisions`,
    ]);
    const verb = await status(await fetch(`${base()}:run`, { method: 'POST', headers: auth, body: '{}' }));
    expect([verb.http, verb.error.status]).toEqual([404, 'NOT_FOUND']);
    const root = await status(await fetch(`${emulator.url}/api/reasoning_engine`, { method: 'POST', headers: auth, body: '{}' }));
    expect(root.http).toBe(404);
    const get = await fetch(`${base()}:query`, { headers: auth });
    expect([get.status, get.headers.get('allow'), (await status(get)).error.status]).toEqual([405, 'POST', 'UNIMPLEMENTED']);
    const postResource = await fetch(base(), { method: 'POST', headers: auth, body: '{}' });
    expect([postResource.status, postResource.headers.get('allow')]).toEqual([405, 'GET']);
  });
});

describe('browsers', () => {
  it('answers a CORS preflight from a loopback page without a token, and grants that origin on answers', async () => {
    const preflight = await fetch(`${base()}:query`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin'), preflight.headers.get('access-control-allow-headers')]).toEqual([
      204,
      'http://localhost:5173',
      'authorization, content-type, traceparent',
    ]);
    const answer = await post(`${base()}:query`, { classMethod: 'echo' }, { origin: 'http://localhost:5173' });
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });
});

describe('GET /v1/{resource}', () => {
  // The platform's ReasoningEngine in ProtoJSON names: googleapis/python-aiplatform,
  // google/cloud/aiplatform_v1/types/reasoning_engine.py (display_name, create_time, update_time,
  // spec.agent_framework, spec.container_spec.image_uri, spec.deployment_spec, spec.class_methods).
  it('returns the whole resource: name, displayName, times, agentFramework, containerSpec, deploymentSpec, classMethods as declared', async () => {
    const response = await fetch(base(), { headers: { authorization: 'Bearer t' } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { createTime: string; updateTime: string };
    expect(body).toEqual({
      name: resource,
      displayName: '9',
      createTime: body.createTime,
      updateTime: body.createTime,
      spec: {
        agentFramework: 'custom',
        containerSpec: { imageUri: 'localhost/agentgen-dev:local' },
        deploymentSpec: {},
        classMethods: manifest,
      },
    });
    // RFC 3339 in UTC, as ProtoJSON writes a Timestamp; the emulator's start, so not in the future.
    expect(body.createTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(body.createTime)).toBeLessThanOrEqual(Date.now());
    expect(logs.at(-1)).toMatch(/^GET resource - 200 /);
  });

  it("takes the display name, agent framework and deployment spec it is given (the spec's)", async () => {
    extra = await startEmulator({
      container: container.url,
      manifest,
      port: 0,
      resource,
      logger: () => {},
      resourceDescription: { displayName: 'travel-agent', agentFramework: 'google-adk', deploymentSpec: { minInstances: 1 } },
    });
    const body = await (await fetch(`${extra.url}/v1/${resource}`, { headers: { authorization: 'Bearer t' } })).json();
    expect(body).toMatchObject({
      displayName: 'travel-agent',
      spec: { agentFramework: 'google-adk', deploymentSpec: { minInstances: 1 }, classMethods: manifest },
    });
  });
});

async function readText(response: Response): Promise<string> {
  return new TextDecoder().decode(new Uint8Array(await response.arrayBuffer()));
}

describe('streaming calls (:streamQuery)', () => {
  it('passes NDJSON through byte for byte, as application/json, from /api/stream_reasoning_engine', async () => {
    const before = container.received.length;
    const response = await post(`${base()}:streamQuery`, { classMethod: 'awkward', input: { message: 'hi' } });
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/json']);
    // The container's last line had no newline: the emulator ends the stream with one.
    expect(await readText(response)).toBe('{"n":0,"text":"héllo"}\r\n{"n":1,"text":"🦜"}\n\n{"n":2}\n');
    const got = container.received[before];
    expect(got?.path).toBe('/api/stream_reasoning_engine');
    expect(JSON.parse(got?.raw ?? '')).toEqual({ class_method: 'awkward', input: { message: 'hi' } }); // streams are never string-encoded
    expect(logs.at(-1)).toMatch(/^POST :streamQuery awkward \("async_stream"\) 200 /);
  });

  it('frames each line as data: <line>\\n\\n with ?alt=sse, across split chunks and characters', async () => {
    const response = await post(`${base()}:streamQuery?alt=sse`, { classMethod: 'awkward', input: {} });
    expect(await readText(response)).toBe('data: {"n":0,"text":"héllo"}\n\ndata: {"n":1,"text":"🦜"}\n\ndata: {"n":2}\n\n');
  });

  it('defaults to stream_query when no method is named', async () => {
    const before = container.received.length;
    const response = await post(`${base()}:streamQuery`, { input: { message: 'x' } });
    await readText(response);
    expect(container.received[before]?.envelope.class_method).toBe('stream_query');
  });

  it('sends each line as it arrives (headers and first event before the container finishes)', async () => {
    const response = await post(`${base()}:streamQuery`, { classMethod: 'gated' });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('{"n":0}\n');
    container.openGate();
    const second = await reader.read();
    expect(new TextDecoder().decode(second.value)).toBe('{"n":1}\n');
    expect((await reader.read()).done).toBe(true);
  });

  it('passes an error line through and ends', async () => {
    expect(await readText(await post(`${base()}:streamQuery`, { classMethod: 'error_line' }))).toBe('{"n":0}\n{"error":"late failure"}\n');
  });

  it('answers a container failure before streaming with 400 FAILED_PRECONDITION', async () => {
    const result = await status(await post(`${base()}:streamQuery`, { classMethod: 'stream_fail' }));
    expect([result.http, result.error.status]).toEqual([400, 'FAILED_PRECONDITION']);
    expect(result.error.message).toBe(
      'Reasoning Engine Execution failed.\nPlease refer to our documentation (https://cloud.google.com/vertex-ai/generative-ai/docs/agent-engine/troubleshooting/use) ' +
        'for checking logs and other troubleshooting tips.\nError Details: model backend unavailable',
    );
  });

  it('ends a stream the container broke off with a last error line', async () => {
    const text = await readText(await post(`${base()}:streamQuery`, { classMethod: 'broken' }));
    const lines = text.split('\n');
    expect(lines[0]).toBe('{"n":0}');
    expect(lines[1]).toBe('{"n": 1, "partial'); // passed through as it arrived
    expect(JSON.parse(lines[2] ?? '')).toMatchObject({
      error: { code: 400, status: 'FAILED_PRECONDITION', message: expect.stringMatching(/^The agent container's stream for broken broke off: /) },
    });
    expect(lines.slice(3)).toEqual(['']);
    expect(logs.at(-1)).toMatch(/^POST :streamQuery broken .* 200 .* container stream broke off, support id [0-9a-f]{32}$/);
  });

  it('passes backpressure on: a caller that stops reading stops the container from writing', async () => {
    const controller = new AbortController();
    const response = await post(`${base()}:streamQuery`, { classMethod: 'flood' }, {}, controller.signal);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 300)); // the caller is busy; the container keeps trying
    const written = container.flooded();
    controller.abort();
    // Socket and stream buffers hold a few MiB at most; without backpressure all 256 MiB would be written.
    expect(written).toBeLessThan(32 * 1024 * 1024);
  });

  it('aborts the container request when the caller disconnects mid-stream', async () => {
    const controller = new AbortController();
    const response = await post(`${base()}:streamQuery`, { classMethod: 'endless' }, {}, controller.signal);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.read();
    controller.abort();
    const lines = await container.endlessClosed; // resolves only once the container saw the disconnect
    expect(lines).toBeLessThan(200);
    await expect.poll(() => logs.at(-1)).toMatch(/^POST :streamQuery endless .* caller disconnected(, support id [0-9a-f]{32})?$/);
  });

  it("cuts a stream at the runtime's limit (15 minutes, google/adk-python #3464; 400 ms here) with a last DEADLINE_EXCEEDED line, and closes the container's request", async () => {
    const own = await startTestContainer();
    const lines: string[] = [];
    try {
      extra = await startEmulator({ container: own.url, manifest, port: 0, resource, streamLimitMs: 400, logger: (line) => lines.push(line) });
      const started = performance.now();
      const response = await post(`${extra.url}/v1/${resource}:streamQuery`, { classMethod: 'endless' });
      const body = (await response.text()).trimEnd().split('\n');
      expect(performance.now() - started).toBeGreaterThanOrEqual(390);
      expect(body.length).toBeGreaterThan(3);
      expect(JSON.parse(body[0]!)).toEqual({ n: 0 });
      const last = JSON.parse(body.at(-1)!) as { error: { code: number; status: string; message: string } };
      expect([last.error.code, last.error.status]).toEqual([504, 'DEADLINE_EXCEEDED']);
      expect(last.error.message).toContain("runtime's limit of 0.4 s");
      expect(await own.endlessClosed).toBeLessThan(100); // the container saw its connection close
      expect(lines.at(-1)).toMatch(/^POST :streamQuery endless .* cut at the 400 ms stream limit/);
    } finally {
      await own.close();
    }
  });

  it('refuses a stream limit that is not a positive integer', async () => {
    for (const streamLimitMs of [0, -1, 1.5]) {
      await expect(startEmulator({ container: container.url, manifest, port: 0, resource, streamLimitMs })).rejects.toThrow(
        'streamLimitMs must be a positive integer',
      );
    }
  });
});

const callerContext = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

async function callWithHeaders(
  verb: ':query' | ':streamQuery',
  method: string,
  headers: Record<string, string>,
): Promise<Record<string, string | string[] | undefined>> {
  const before = container.received.length;
  const res = await fetch(`${emulator.url}/v1/${resource}${verb}`, {
    method: 'POST',
    headers: { authorization: 'Bearer t', 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ classMethod: method, input: {} }),
  });
  await res.text();
  expect(container.received.length).toBe(before + 1);
  return container.received[before]!.headers;
}

/**
 * `agentgen dev` forwards trace context as the platform does: the caller's `traceparent` in
 * `Google-Agent-Engine-Traceparent`, and a fresh support id (not a trace context) in plain
 * `traceparent`, which its log line names.
 */
describe('trace headers to the container', () => {
  for (const [verb, method] of [
    [':query', 'echo'],
    [':streamQuery', 'stream_query'],
  ] as const) {
    it(`${verb}: the caller's context in Google-Agent-Engine-Traceparent, a support id in traceparent`, async () => {
      const headers = await callWithHeaders(verb, method, { traceparent: callerContext });
      expect(headers['google-agent-engine-traceparent']).toBe(callerContext);
      const supportId = headers['traceparent'];
      expect(supportId).toMatch(/^[0-9a-f]{32}$/);
      expect(parseTraceparent(supportId as string)).toBeUndefined(); // as the platform's: no trace context
      expect(logs.at(-1)).toContain(`support id ${supportId as string}`);
    });
  }

  it('sends no Google header without a caller context, and a new support id per call', async () => {
    const first = await callWithHeaders(':query', 'echo', {});
    const second = await callWithHeaders(':query', 'echo', {});
    expect(first['google-agent-engine-traceparent']).toBeUndefined();
    expect(first['traceparent']).not.toBe(second['traceparent']);
  });

  it("passes a caller's garbage context on as it came (the container judges it), but not an oversized one", async () => {
    expect((await callWithHeaders(':query', 'echo', { traceparent: 'garbage' }))['google-agent-engine-traceparent']).toBe('garbage');
    expect((await callWithHeaders(':query', 'echo', { traceparent: 'x'.repeat(4000) }))['google-agent-engine-traceparent']).toBeUndefined();
  });
});

describe('stopping with calls in flight (issue 29: dev stopped with a reset)', () => {
  it('answers a unary call 503 UNAVAILABLE and ends a stream with a last UNAVAILABLE line, and aborts their container requests', async () => {
    // A container that never finishes: the unary call never answers, the stream sends one line and waits.
    const aborted: string[] = [];
    const hanging = createServer((req, res) => {
      req.resume();
      res.once('close', () => aborted.push(req.url ?? ''));
      if (req.url === '/api/stream_reasoning_engine') res.writeHead(200, { 'content-type': 'application/json' }).write('{"n":0}\n');
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const dev = await startEmulator({
        container: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`,
        manifest,
        port: 0,
        resource,
        logger: () => {},
      });
      const unary = post(`${dev.url}/v1/${resource}:query`, { classMethod: 'echo', input: {} });
      const stream = await post(`${dev.url}/v1/${resource}:streamQuery`, { classMethod: 'stream_query', input: {} });
      const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
      let text = new TextDecoder().decode((await reader.read()).value);
      const started = performance.now();
      await dev.close();
      expect(performance.now() - started).toBeLessThan(1_000);
      const answer = await unary;
      expect([answer.status, ((await answer.json()) as { error: { status: string; message: string } }).error]).toEqual([
        503,
        { code: 503, status: 'UNAVAILABLE', message: 'agentgen dev is shutting down', details: [] },
      ]);
      for (let step = await reader.read(); !step.done; step = await reader.read()) text += new TextDecoder().decode(step.value);
      const lines = text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown);
      expect(lines).toEqual([{ n: 0 }, { error: { code: 503, status: 'UNAVAILABLE', message: 'agentgen dev is shutting down', details: [] } }]);
      await expect.poll(() => [...aborted].sort()).toEqual(['/api/reasoning_engine', '/api/stream_reasoning_engine']);
    } finally {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });
});
