/**
 * Error hygiene (issue 17, items 1 to 3): an unexpected failure answers `Internal error (id …)` and
 * logs the rest under that id; no caller's bytes are quoted back from a JSON parse error; input
 * nested deeper than `maxDepth` is refused before validation; and what node:http itself refuses
 * (framing, header size, timeouts) answers in the same JSON error body, over real loopback HTTP.
 */
import { connect } from 'node:net';
import { AgentError, createContainer, type LogEntry, type ServerOperationTable, stderrLogger } from '@agentgen/runtime/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { probe } from '../../conformance/http.js';
import { closeAll, envelope, parseLines, start } from './fixture.js';
import { parseRawAnswer } from './slow-client.js';

const secret = 'hunter2-do-not-echo';
const errorOf = (body: string) => (JSON.parse(body) as { error: { code: number; message: string; status: string } }).error;
const internal = /^Internal error \(id ([0-9a-f]{10})\)$/;

let called = 0;
const table: ServerOperationTable = new Map([
  ['throws', { kind: 'unary', input: z.object({}) }],
  ['not_found', { kind: 'unary', input: z.object({}) }],
  ['unavailable', { kind: 'unary', input: z.object({}) }],
  ['typed', { kind: 'unary', input: z.object({}), output: z.object({ answer: z.number(), mode: z.enum(['a', 'b']) }) }],
  ['deep', { kind: 'unary', input: z.object({ data: z.unknown() }) }],
  ['fails_midway', { kind: 'stream', input: z.object({}) }],
]);
const handlers = {
  throws: () => {
    throw new Error(`database password ${secret} rejected`);
  },
  not_found: () => {
    throw new AgentError('NOT_FOUND', 'session s1 not found');
  },
  unavailable: () => {
    throw new AgentError('UNAVAILABLE', 'the model is overloaded');
  },
  typed: () => ({ answer: secret, mode: secret }),
  deep: () => {
    called++;
    return 'handled';
  },
  async *fails_midway() {
    yield { n: 1 };
    await Promise.resolve();
    throw new Error(`upstream said ${secret}`);
  },
};

const logged: LogEntry[] = [];
let url = '';
beforeAll(async () => {
  ({ url } = await start(table, handlers, { logger: (entry) => logged.push(entry), validateResults: true }));
});
afterAll(closeAll);
afterEach(() => {
  logged.length = 0;
  vi.restoreAllMocks();
});

const unary = (body: string) => probe(url, { path: '/api/reasoning_engine', body });
const logOf = (operation: string) => logged.filter((entry) => entry.operation === operation);

describe('an unexpected exception', () => {
  it('answers 500 "Internal error (id …)" and logs the message and the stack under that id', async () => {
    const res = await unary(envelope('throws'));
    expect(res.status).toBe(500);
    const error = errorOf(res.body);
    expect(error).toMatchObject({ code: 500, status: 'INTERNAL' });
    const id = internal.exec(error.message)?.[1];
    expect(id).toBeDefined();
    expect(res.body).not.toContain(secret);

    const [entry] = logOf('throws');
    expect(entry).toMatchObject({ level: 'error', status: 500, errorId: id });
    expect(entry?.message).toBe(`operation "throws" failed: database password ${secret} rejected`);
    expect((entry!.error as Error).stack).toContain('hygiene.test.ts');
  });

  it('gives each failure its own id', async () => {
    const a = errorOf((await unary(envelope('throws'))).body).message;
    const b = errorOf((await unary(envelope('throws'))).body).message;
    expect(a).toMatch(internal);
    expect(b).toMatch(internal);
    expect(a).not.toBe(b);
  });

  it('ends a started stream with the same hygienic last line', async () => {
    const res = await probe(url, { path: '/api/stream_reasoning_engine', body: envelope('fails_midway') });
    expect(res.status).toBe(200);
    expect(res.body).not.toContain(secret);
    const lines = parseLines(res.body) as Array<{ error?: { code: number; status: string; message: string } }>;
    expect(lines[0]).toEqual({ n: 1 });
    const last = lines[1]?.error;
    expect(last).toMatchObject({ code: 500, status: 'INTERNAL' });
    const id = internal.exec(last?.message ?? '')?.[1];
    expect(id).toBeDefined();
    await vi.waitFor(() => expect(logOf('fails_midway')).toHaveLength(1));
    expect(logOf('fails_midway')[0]).toMatchObject({ level: 'error', errorId: id, message: `operation "fails_midway" failed: upstream said ${secret}` });
  });

  it('stderrLogger prints the error id with the stack frames', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const error = new Error('boom');
    stderrLogger({ level: 'error', message: 'operation "x" failed: boom', status: 500, error, errorId: 'abcdef0123' });
    const text = write.mock.calls.map((call) => String(call[0])).join('');
    write.mockRestore();
    expect(text).toContain('abcdef0123');
    const frames = (error.stack ?? '').split('\n').slice(1).join('\n');
    expect(frames).toMatch(/^\s+at /);
    expect(text).toContain(frames);
  });

  it('stderrLogger keeps a thrown message on its line and a password or token out of it', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    // What a driver or an HTTP client may throw, with text from a request in it.
    const thrown =
      'connect failed for postgres://app:hunter2@db:5432/x\ninfo POST /api/reasoning_engine 200 forged\u001b[2J; Authorization: Bearer ya29.TOKEN; api_key=AIzaSECRET';
    const error = new Error(thrown);
    stderrLogger({ level: 'error', message: `operation "x" failed: ${thrown}`, status: 500, error, errorId: 'abcdef0123' });
    const text = write.mock.calls.map((call) => String(call[0])).join('');
    write.mockRestore();
    for (const leak of ['hunter2', 'ya29.TOKEN', 'AIzaSECRET', '\u001b']) expect(text).not.toContain(leak);
    const lines = text.split('\n').filter((line) => line !== '');
    // The entry's own line, then stack frames only: nothing else starts a line.
    expect(lines[0]).toContain('postgres://app:***@db:5432/x\\ninfo POST');
    expect(lines[0]).toContain('Bearer ***');
    expect(lines.slice(1).every((line) => /^\s+at /.test(line))).toBe(true);
  });
});

describe('AgentError and client errors', () => {
  it("keeps an AgentError's deliberate message and logs a 4xx at info without a stack", async () => {
    const res = await unary(envelope('not_found'));
    expect(res.status).toBe(404);
    expect(errorOf(res.body)).toEqual({ code: 404, status: 'NOT_FOUND', message: 'session s1 not found' });
    const [entry] = logOf('not_found');
    expect(entry).toMatchObject({ level: 'info', status: 404, message: 'session s1 not found' });
    expect(entry?.error).toBeUndefined();
    expect(entry?.errorId).toBeUndefined();
  });

  it("keeps a 5xx AgentError's message too, logged as an error", async () => {
    const res = await unary(envelope('unavailable'));
    expect(errorOf(res.body)).toEqual({ code: 503, status: 'UNAVAILABLE', message: 'the model is overloaded' });
    expect(logOf('unavailable')[0]).toMatchObject({ level: 'error', status: 503 });
  });

  it('logs a refused request (invalid input) at info without a stack', async () => {
    const res = await unary(envelope('deep', 'not an object'));
    expect(res.status).toBe(400);
    const entry = logged.at(-1);
    expect(entry).toMatchObject({ level: 'info', status: 400 });
    expect(entry?.error).toBeUndefined();
  });

  it('names the field of a result that fails validateResults, never its value', async () => {
    const res = await unary(envelope('typed'));
    expect(res.status).toBe(500);
    const { message } = errorOf(res.body);
    expect(message).toMatch(/^operation "typed" returned a result that does not match its declared output: answer: .*expected number, received string; mode: /);
    expect(message).not.toContain(secret);
    expect(JSON.stringify(logOf('typed').map((entry) => entry.message))).not.toContain(secret);
  });
});

describe('a body that is not JSON', () => {
  it.each([
    ['a bare word', secret, 'unexpected character at position 0'],
    ['a bad value inside', `{"class_method":"deep","input":{"data":${secret}}}`, 'unexpected character at position 39'],
    ['a bad token after a key', `{"class_method" ${secret}}`, 'unexpected character at position 16'],
    ['text after the value', `{"class_method":"deep"} ${secret}`, 'unexpected character at position 24'],
    ['an unterminated string', `{"class_method":"${secret}`, `unexpected end of input at position ${17 + secret.length}`],
    ['a bad escape', `{"class_method":"\\q${secret}"}`, 'unexpected character at position 18'],
    ['a trailing comma', `[1,2,]`, 'unexpected character at position 5'],
    ['nothing', '', 'unexpected end of input at position 0'],
  ])('%s: says the position, never the body', async (_, body, where) => {
    const res = await unary(body);
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toEqual({ code: 400, status: 'INVALID_ARGUMENT', message: `the request body is not valid JSON: ${where}` });
    const entry = logged.at(-1);
    expect(entry).toMatchObject({ level: 'info', status: 400 });
    expect(JSON.stringify(entry)).not.toContain('hunter2');
  });

  it('says the position inside a body sent as a JSON string, never the text', async () => {
    const res = await unary(JSON.stringify(`{"class_method": ${secret}}`));
    expect(res.status).toBe(400);
    expect(errorOf(res.body).message).toBe('the request body is a JSON string whose text is not valid JSON: unexpected character at position 17 of that text');
    expect(JSON.stringify(logged)).not.toContain('hunter2');
  });

  it('finds the position in a malformed body 100,000 levels deep', async () => {
    const res = await unary(`${'['.repeat(100_000)}x`);
    expect(res.status).toBe(400);
    expect(errorOf(res.body).message).toBe('the request body is not valid JSON: unexpected character at position 100000');
  });
});

describe('nesting limit', () => {
  const nested = (levels: number, leaf: unknown = 1): unknown => {
    let value = leaf;
    for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { x: value };
    return value;
  };
  /** `input` is level 1 and arrays in its `data` field the rest: `levels` in all (written as text: too deep for JSON.stringify). */
  const deepBody = (levels: number) => `{"class_method":"deep","input":{"data":${'['.repeat(levels - 1)}1${']'.repeat(levels - 1)}}}`;

  it('refuses input 5,000 levels deep with 400, before the handler', async () => {
    called = 0;
    const res = await unary(deepBody(5000));
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toEqual({
      code: 400,
      status: 'INVALID_ARGUMENT',
      message: 'invalid input for "deep": nested deeper than the limit of 100 levels',
    });
    expect(called).toBe(0);
  });

  it('accepts 100 levels and refuses 101 by default', async () => {
    called = 0;
    expect((await unary(deepBody(100))).status).toBe(200);
    expect(called).toBe(1);
    expect((await unary(deepBody(101))).status).toBe(400);
    expect(called).toBe(1);
  });

  it('counts nesting wherever it is, in arrays and objects', async () => {
    const wide = { data: [1, { a: [2, 3] }, { b: nested(200) }] };
    expect((await unary(envelope('deep', wide))).status).toBe(400);
  });

  it('takes the limit from maxDepth', async () => {
    const small = await start(table, handlers, { maxDepth: 3 });
    const call = (levels: number) => probe(small.url, { path: '/api/reasoning_engine', body: deepBody(levels) });
    expect((await call(3)).status).toBe(200);
    const res = await call(4);
    expect(res.status).toBe(400);
    expect(errorOf(res.body).message).toContain('nested deeper than the limit of 3 levels');
    expect(() => createContainer(table, handlers, { maxDepth: 0 })).toThrow(/maxDepth must be a positive integer/);
  });

  it('refuses deep input before validation: a recursive schema never sees it', async () => {
    type Tree = { child?: Tree };
    const tree: z.ZodType<Tree> = z.lazy(() => z.object({ child: tree.optional() }));
    const recursive: ServerOperationTable = new Map([['tree', { kind: 'unary', input: z.object({ root: tree }) }]]);
    const server = await start(recursive, { tree: () => 'ok' });
    const levels = 20_000;
    const body = `{"class_method":"tree","input":{"root":${'{"child":'.repeat(levels)}{}${'}'.repeat(levels)}}}`;
    const res = await probe(server.url, { path: '/api/reasoning_engine', body });
    expect(res.status).toBe(400);
    expect(errorOf(res.body).status).toBe('INVALID_ARGUMENT');
  });
});

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Writes `request` as it is on a fresh connection and reads until the server closes it. */
function raw(port: number, request: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close after 5 s; got ${JSON.stringify(Buffer.concat(chunks).toString('latin1'))}`));
    }, 5000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined); // a reset after the answer: what was read still counts
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseRawAnswer(Buffer.concat(chunks).toString('latin1')));
    });
    socket.write(request);
  });
}

describe('requests node:http refuses', () => {
  let port = 0;
  beforeAll(async () => {
    port = Number(new URL(url).port);
  });

  const expectJson = (answer: RawAnswer, code: number, status: string) => {
    expect(answer.status).toBe(code);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['connection']).toBe('close');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    expect(errorOf(answer.body)).toMatchObject({ code, status });
  };

  it('answers bad chunked framing with a JSON 400', async () => {
    const answer = await raw(
      port,
      'POST /api/reasoning_engine HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n',
    );
    expectJson(answer, 400, 'INVALID_ARGUMENT');
    expect(errorOf(answer.body).message).toBe('the request is not valid HTTP/1.1 (HPE_INVALID_CHUNK_SIZE)');
  });

  it('answers a duplicate Content-Length with a JSON 400', async () => {
    const body = envelope('deep', { data: 1 });
    const answer = await raw(
      port,
      `POST /api/reasoning_engine HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\nContent-Length: ${body.length + 1}\r\n\r\n${body}`,
    );
    expectJson(answer, 400, 'INVALID_ARGUMENT');
  });

  it('answers a garbled request line with a JSON 400, quoting nothing of it', async () => {
    const answer = await raw(port, `P${secret} /api HTTP/1.1\r\n\r\n`);
    expectJson(answer, 400, 'INVALID_ARGUMENT');
    expect(answer.body).not.toContain('hunter2');
  });

  it('answers oversized headers with a JSON 431 OUT_OF_RANGE', async () => {
    const answer = await raw(port, `POST /api/reasoning_engine HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(32 * 1024)}\r\n\r\n`);
    expectJson(answer, 431, 'OUT_OF_RANGE');
  });

  it('answers a request whose headers never finish with a JSON 408 DEADLINE_EXCEEDED', async () => {
    const container = createContainer(table, handlers, { host: '127.0.0.1', port: 0 });
    container.server.headersTimeout = 200;
    container.server.requestTimeout = 400;
    // Read when the server starts listening; not in @types/node's Server type.
    (container.server as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = 50;
    const { port: slowPort } = await container.listen();
    try {
      const answer = await raw(slowPort, 'POST /api/reasoning_engine HTTP/1.1\r\nHost: x\r\n');
      expectJson(answer, 408, 'DEADLINE_EXCEEDED');
    } finally {
      await container.close();
    }
  });

  it('keeps serving afterwards', async () => {
    expect((await unary(envelope('deep', { data: 1 }))).status).toBe(200);
  });
});
