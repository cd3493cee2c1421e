/** The client runtime over real HTTP against scripted servers on loopback. */

import { AgentApiError, AgentValidationError, type ClientOperationTable, createClientCore } from '@agentgen/runtime/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Fixture, type Handler, sleep, splitAt, startFixture, writeChunks } from './http-fixture.js';

const resourceName = 'projects/p/locations/l/reasoningEngines/42';
const resourcePath = `/v1/${resourceName}`;
const encoder = new TextEncoder();

// Real zod schemas, as the generated validators would be: the result one normalises camelCase.
const session = z
  .object({ id: z.string(), user_id: z.string().optional(), userId: z.string().optional() })
  .transform(({ userId, user_id, ...rest }) => ({ ...rest, user_id: user_id ?? userId }));
const table: ClientOperationTable = new Map([
  ['async_create_session', { kind: 'unary', input: z.object({ user_id: z.string() }), output: session }],
  ['async_delete_session', { kind: 'unary', input: z.object({ user_id: z.string(), session_id: z.string() }), output: z.null() }],
  ['async_stream_query', { kind: 'stream', input: z.object({ user_id: z.string(), message: z.string() }) }],
]);

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function serve(handler: Handler): Promise<Fixture> {
  fixture = await startFixture(handler);
  return fixture;
}

const json =
  (status: number, body: unknown): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

describe('unary calls', () => {
  it('POSTs {classMethod, input} to :query with the bearer token and returns the normalised output', async () => {
    const server = await serve(json(200, { output: { id: '7', userId: 'u1' } }));
    let calls = 0;
    const client = createClientCore(table, {
      baseUrl: `${server.url}/`,
      resourceName,
      token: async () => `tok-${++calls}`,
    });
    const call = client['async_create_session'];
    expect(await call?.({ user_id: 'u1' })).toEqual({ id: '7', user_id: 'u1' });
    await call?.({ user_id: 'u2' });
    expect(server.requests.map((r) => [r.method, r.url, r.headers.authorization, r.headers['content-type']])).toEqual([
      ['POST', `${resourcePath}:query`, 'Bearer tok-1', 'application/json'],
      ['POST', `${resourcePath}:query`, 'Bearer tok-2', 'application/json'],
    ]);
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ classMethod: 'async_create_session', input: { user_id: 'u1' } });
  });

  it('refuses invalid input before sending anything, naming the field', async () => {
    const server = await serve(json(200, { output: null }));
    const client = createClientCore(table, { baseUrl: server.url, resourceName, token: 't' });
    const error = await Promise.resolve(client['async_create_session']?.({ user_id: 5 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentValidationError);
    expect((error as Error).message).toMatch(/^Invalid input for async_create_session: user_id: /);
    await expect(Promise.resolve(client['async_create_session']?.(['x']))).rejects.toThrow('expected an object, got an array');
    expect(server.requests).toHaveLength(0);
  });

  it('sends invalid input when validation is off, and returns the raw output', async () => {
    const server = await serve(json(200, { output: { id: 1 } }));
    const client = createClientCore(table, { baseUrl: server.url, resourceName, token: 't', validate: false });
    expect(await client['async_create_session']?.({ user_id: 5 })).toEqual({ id: 1 });
    expect(JSON.parse(server.requests[0]?.body ?? '').input).toEqual({ user_id: 5 });
  });

  it('throws a clear error for a result that fails its validator', async () => {
    await serve(json(200, { output: { id: 1 } }));
    const client = createClientCore(table, { baseUrl: fixture!.url, resourceName, token: 't' });
    await expect(Promise.resolve(client['async_create_session']?.({ user_id: 'u' }))).rejects.toThrow(/^Invalid result from async_create_session: id: /);
  });

  it('accepts a null output for an operation without a result', async () => {
    await serve(json(200, { output: null }));
    const client = createClientCore(table, { baseUrl: fixture!.url, resourceName, token: 't' });
    expect(await client['async_delete_session']?.({ user_id: 'u', session_id: 's' })).toBeNull();
  });

  it('turns a google.rpc.Status body into an AgentApiError with all its fields', async () => {
    const status = { code: 404, message: 'Session not found: s9', status: 'NOT_FOUND', details: [{ '@type': 'x' }] };
    await serve(json(404, { error: status }));
    const client = createClientCore(table, { baseUrl: fixture!.url, resourceName, token: 't' });
    const error = await Promise.resolve(client['async_create_session']?.({ user_id: 'u' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentApiError);
    expect(error).toMatchObject({ httpStatus: 404, ...status, body: undefined });
  });

  it('keeps the raw text of a non-JSON error body', async () => {
    await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>');
    });
    const client = createClientCore(table, { baseUrl: fixture!.url, resourceName, token: 't' });
    const error = (await Promise.resolve(client['async_create_session']?.({ user_id: 'u' })).catch((e: unknown) => e)) as AgentApiError;
    expect(error).toMatchObject({ httpStatus: 502, code: 502, status: 'UNKNOWN', body: '<html>bad gateway</html>' });
    expect(error.message).toBe('HTTP 502 Bad Gateway: <html>bad gateway</html>');
  });

  it('reports a 2xx body that is not JSON or has no output', async () => {
    let body = 'not json';
    await serve((_req, res) => void res.writeHead(200).end(body));
    const client = createClientCore(table, { baseUrl: fixture!.url, resourceName, token: 't', validate: false });
    await expect(Promise.resolve(client['async_create_session']?.({}))).rejects.toThrow('Response of async_create_session is not JSON: not json');
    body = '{"result": 1}';
    await expect(Promise.resolve(client['async_create_session']?.({}))).rejects.toThrow('has no "output"');
  });

  it('reports a refused connection as UNAVAILABLE with no HTTP status', async () => {
    const server = await serve(json(200, {}));
    await server.close();
    fixture = undefined;
    const client = createClientCore(table, { baseUrl: server.url, resourceName, token: 't' });
    const error = await Promise.resolve(client['async_create_session']?.({ user_id: 'u' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AgentApiError', httpStatus: 0, status: 'UNAVAILABLE' });
  });
});

/** A stream whose bytes arrive in the given chunks. */
function streamOf(chunks: readonly Uint8Array[], status = 200): Handler {
  return async (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.flushHeaders();
    await writeChunks(res, chunks);
    res.end();
  };
}

const events = [
  { id: 'e1', content: { parts: [{ text: 'héllo' }] } },
  { id: 'e2', content: { parts: [{ text: 'ツール 🦜' }] } },
  { id: 'e3', turn_complete: true },
];

async function collect(iterable: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const event of iterable) out.push(event);
  return out;
}

describe('streaming calls', () => {
  it('reads NDJSON whose chunks split lines and a multi-byte character', async () => {
    const bytes = encoder.encode(events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const emoji = Buffer.from(bytes).indexOf(Buffer.from('🦜'));
    const server = await serve(streamOf(splitAt(bytes, [3, 20, emoji + 1, emoji + 3, bytes.length - 2])));
    const client = createClientCore(table, { baseUrl: server.url, resourceName, token: 'tok' });
    const stream = client['async_stream_query']?.({ user_id: 'u', message: 'hi' }) as AsyncIterable<unknown>;
    expect(server.requests).toHaveLength(0); // nothing is sent until iteration starts
    expect(await collect(stream)).toEqual(events);
    const request = server.requests[0];
    expect([request?.url, request?.headers.authorization]).toEqual([`${resourcePath}:streamQuery`, 'Bearer tok']);
    expect(JSON.parse(request?.body ?? '')).toEqual({ classMethod: 'async_stream_query', input: { user_id: 'u', message: 'hi' } });
  });

  it('uses ?alt=sse and reads data: framing with \\r\\n and comments', async () => {
    const text = `: hello\r\n\r\n${events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join('')}`;
    const bytes = encoder.encode(text);
    const server = await serve(streamOf(splitAt(bytes, [1, 9, 10, 40, 41, 90])));
    const client = createClientCore(table, { baseUrl: server.url, resourceName, token: 't', sse: true });
    expect(await collect(client['async_stream_query']?.({ user_id: 'u', message: 'hi' }) as AsyncIterable<unknown>)).toEqual(events);
    expect(server.requests[0]?.url).toBe(`${resourcePath}:streamQuery?alt=sse`);
  });

  it('delivers events before an error line, then throws the error', async () => {
    const error = { code: 500, message: 'model overloaded', status: 'INTERNAL', details: [] };
    const text = `${JSON.stringify(events[0])}\n${JSON.stringify({ error })}\n`;
    await serve(streamOf([encoder.encode(text)]));
    const client = createClientCore(table, { baseUrl: fixture!.url, resourceName, token: 't' });
    const seen: unknown[] = [];
    const failure = await (async () => {
      for await (const event of client['async_stream_query']!({ user_id: 'u', message: 'm' }) as AsyncIterable<unknown>) seen.push(event);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([events[0]]);
    expect(failure).toBeInstanceOf(AgentApiError);
    expect(failure).toMatchObject({ httpStatus: 200, code: 500, status: 'INTERNAL', message: 'model overloaded' });
  });

  it('throws the Status of a refused stream at the first next()', async () => {
    await serve(json(400, { error: { code: 400, message: 'no such method', status: 'INVALID_ARGUMENT' } }));
    const client = createClientCore(table, { baseUrl: fixture!.url, resourceName, token: 't' });
    await expect(collect(client['async_stream_query']?.({ user_id: 'u', message: 'm' }) as AsyncIterable<unknown>)).rejects.toMatchObject({
      httpStatus: 400,
      status: 'INVALID_ARGUMENT',
      message: 'no such method',
    });
  });

  it('rejects invalid stream input at the first next() without sending', async () => {
    await serve(streamOf([]));
    const client = createClientCore(table, { baseUrl: fixture!.url, resourceName, token: 't' });
    await expect(collect(client['async_stream_query']?.({ user_id: 'u' }) as AsyncIterable<unknown>)).rejects.toThrow(
      /^Invalid input for async_stream_query: message: /,
    );
    expect(fixture!.requests).toHaveLength(0);
  });

  it('serves concurrent next() calls in order', async () => {
    const bytes = encoder.encode(events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    await serve(streamOf(splitAt(bytes, [5, 30, 50])));
    const client = createClientCore(table, { baseUrl: fixture!.url, resourceName, token: 't' });
    const stream = client['async_stream_query']?.({ user_id: 'u', message: 'm' }) as AsyncIterator<unknown>;
    const results = await Promise.all([stream.next(), stream.next(), stream.next(), stream.next()]);
    expect(results).toEqual([...events.map((value) => ({ value, done: false })), { value: undefined, done: true }]);
  });
});

/** A server that streams an event every 10 ms until the client goes away; `closed` resolves then, with the count sent. */
async function endlessStream(): Promise<{ closed: Promise<number> }> {
  let markClosed!: (sent: number) => void;
  const closed = new Promise<number>((resolve) => (markClosed = resolve));
  await serve(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    let sent = 0;
    res.on('close', () => markClosed(sent));
    while (!res.destroyed && sent < 10_000) {
      res.write(`${JSON.stringify({ id: `e${sent++}` })}\n`);
      await sleep(10);
    }
    res.end();
  });
  return { closed };
}

describe('cancellation', () => {
  it('break ends the HTTP request: the server sees the socket close', async () => {
    const server = await endlessStream();
    const client = createClientCore(table, { baseUrl: fixture!.url, resourceName, token: 't' });
    const seen: unknown[] = [];
    for await (const event of client['async_stream_query']!({ user_id: 'u', message: 'm' }) as AsyncIterable<unknown>) {
      seen.push(event);
      if (seen.length === 3) break;
    }
    const sent = await server.closed; // resolves only when the server-side response closed
    expect(seen).toEqual([{ id: 'e0' }, { id: 'e1' }, { id: 'e2' }]);
    expect(sent).toBeLessThan(100);
  });

  it('an AbortSignal stops the stream with its reason and closes the request', async () => {
    const server = await endlessStream();
    const client = createClientCore(table, { baseUrl: fixture!.url, resourceName, token: 't' });
    const controller = new AbortController();
    const seen: unknown[] = [];
    const failure = await (async () => {
      for await (const event of client['async_stream_query']!({ user_id: 'u', message: 'm' }, { signal: controller.signal }) as AsyncIterable<unknown>) {
        seen.push(event);
        if (seen.length === 2) controller.abort(new Error('user gave up'));
      }
    })().catch((e: unknown) => e);
    expect((failure as Error).message).toBe('user gave up');
    expect(await server.closed).toBeLessThan(100);
  });

  it('an already-aborted signal sends nothing', async () => {
    await serve(json(200, { output: null }));
    const client = createClientCore(table, { baseUrl: fixture!.url, resourceName, token: 't' });
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    await expect(
      collect(client['async_stream_query']?.({ user_id: 'u', message: 'm' }, { signal: controller.signal }) as AsyncIterable<unknown>),
    ).rejects.toThrow('too late');
    await expect(Promise.resolve(client['async_create_session']?.({ user_id: 'u' }, { signal: controller.signal }))).rejects.toThrow('too late');
    expect(fixture!.requests).toHaveLength(0);
  });
});

describe('the client object', () => {
  it('dispatches operations named like Object.prototype members, and inherits nothing', async () => {
    const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];
    await serve((_req, res, body) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ output: JSON.parse(body).classMethod }));
    });
    const client = createClientCore(new Map(names.map((name) => [name, { kind: 'unary' as const }])), {
      baseUrl: fixture!.url,
      resourceName,
      token: 't',
    });
    for (const name of names) {
      expect(Object.hasOwn(client, name)).toBe(true);
      expect(await client[name]?.({})).toBe(name);
    }
    expect(Object.getPrototypeOf(client)).toBeNull();
    expect(client['isPrototypeOf']).toBeUndefined();
    expect(Object.keys(client)).toEqual(names);
  });

  it('refuses an operation named like a generic method', () => {
    expect(() => createClientCore(new Map([['call', { kind: 'unary' }]]), { baseUrl: 'http://x', resourceName, token: 't' })).toThrow(
      'Operation name "call" collides with the client\'s own call()',
    );
  });

  it('checks its options clearly', () => {
    const base = { baseUrl: 'http://127.0.0.1:1', resourceName, token: 't' };
    expect(() => createClientCore(table, { ...base, baseUrl: 'not a url' })).toThrow('baseUrl is not a URL: "not a url"');
    expect(() => createClientCore(table, { ...base, resourceName: 'projects//x' })).toThrow('resourceName must look like');
    expect(() => createClientCore(table, { ...base, token: 5 as unknown as string })).toThrow('token must be a string');
  });

  it('getResource GETs the resource with the bearer token', async () => {
    const resource = { name: resourceName, spec: { classMethods: [{ name: 'a', api_mode: '' }] } };
    await serve(json(200, resource));
    const client = createClientCore(table, { baseUrl: fixture!.url, resourceName, token: () => 'sync-token' });
    expect(await client.getResource()).toEqual(resource);
    expect(fixture!.requests.map((r) => [r.method, r.url, r.headers.authorization, r.body])).toEqual([['GET', resourcePath, 'Bearer sync-token', '']]);
  });

  it('call() reaches undeclared operations, unary and streaming', async () => {
    await serve((req, res, body) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url?.endsWith(':query')) res.end(JSON.stringify({ output: JSON.parse(body) }));
      else res.end(`${JSON.stringify({ n: 1 })}\n${JSON.stringify({ n: 2 })}\n`);
    });
    const client = createClientCore(table, { baseUrl: fixture!.url, resourceName, token: 't' });
    expect(await client.call('custom_op', { a: 1 })).toEqual({ classMethod: 'custom_op', input: { a: 1 } });
    expect(await collect(client.call('custom_stream', {}, { stream: true }))).toEqual([{ n: 1 }, { n: 2 }]);
    expect(fixture!.requests.map((r) => r.url)).toEqual([`${resourcePath}:query`, `${resourcePath}:streamQuery`]);
  });
});

describe('the revision option', () => {
  // The revision-pinned routes of v1beta1 (googleapis reasoning_engine_execution_service.proto:
  // `/v1beta1/{name=projects/*/locations/*/reasoningEngines/*/runtimeRevisions/*}:query`).
  it('pins :query and :streamQuery (SSE too) to one runtime revision, by id or full name; getResource stays on the engine', async () => {
    await serve((req, res, body) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url?.endsWith(':query')) res.end(JSON.stringify({ output: JSON.parse(body) }));
      else if (req.method === 'GET') res.end(JSON.stringify({ name: resourceName }));
      else res.end(`${JSON.stringify({ n: 1 })}\n`);
    });
    const pinned = `/v1beta1/${resourceName}/runtimeRevisions/7`;
    const byId = createClientCore(table, { baseUrl: fixture!.url, resourceName, token: 't', revision: '7' });
    await byId.call('custom_op', {});
    await collect(byId.call('custom_stream', {}, { stream: true }));
    await byId.getResource();
    const byName = createClientCore(table, { baseUrl: fixture!.url, resourceName, token: 't', revision: `${resourceName}/runtimeRevisions/7`, sse: true });
    await collect(byName.call('custom_stream', {}, { stream: true }));
    expect(fixture!.requests.map((r) => r.url)).toEqual([`${pinned}:query`, `${pinned}:streamQuery`, resourcePath, `${pinned}:streamQuery?alt=sse`]);
  });

  it('refuses a revision of another engine, or one that would change the path', () => {
    const make = (revision: string) => () => createClientCore(table, { baseUrl: 'http://127.0.0.1:1', resourceName, token: 't', revision });
    expect(make('projects/p/locations/l/reasoningEngines/43/runtimeRevisions/7')).toThrow(/revision must be a runtime revision id/);
    expect(make('7:query')).toThrow(TypeError);
    expect(make('../8')).toThrow(TypeError);
    expect(make('')).toThrow(TypeError);
  });
});
