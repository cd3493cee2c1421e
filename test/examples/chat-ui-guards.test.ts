/**
 * Issue 44, item 5: examples/chat-ui answers its own page only. Over real HTTP on loopback, the
 * chat server in front of the weather example's generated client, whose agent is a loopback
 * server that counts the calls it gets: a foreign Origin, an unknown Host (DNS rebinding) and a
 * body not declared JSON (a cross-origin text/plain form or no-cors fetch) are refused with a 4xx
 * and never reach the agent; a 413 leaves its keep-alive connection usable; and a fixed-seed fuzz
 * of malformed requests gets no 5xx and no raw control character back.
 */

import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatServer } from '../../examples/chat-ui/src/server.js';
import { createAgentClient } from '../../examples/weather-agent/generated/client.js';

let agentCalls = 0;
let agent: Server;
let chat: Server;
let port: number;
const origin = () => `http://127.0.0.1:${port}`;
const limit = 4096;

const runInput = JSON.stringify({
  threadId: 't',
  runId: 'r',
  state: {},
  messages: [{ id: 'm', role: 'user', content: 'hi' }],
  tools: [],
  context: [],
  forwardedProps: {},
});

async function listen(server: Server): Promise<number> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  // The agent: counts every call, and answers each with a 503 (a turn that reaches it ends in RUN_ERROR).
  agent = createServer((req, res) => {
    agentCalls++;
    req.resume();
    res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":503,"message":"down","status":"UNAVAILABLE"}}');
  });
  const agentPort = await listen(agent);
  const client = createAgentClient({ baseUrl: `http://127.0.0.1:${agentPort}`, resourceName: 'projects/p/locations/l/reasoningEngines/1', token: 't' });
  chat = createChatServer({ client, assetsDir: '/nonexistent', maxBodyBytes: limit });
  port = await listen(chat);
});
afterAll(async () => {
  chat?.closeAllConnections();
  agent?.closeAllConnections();
  await Promise.all([chat, agent].map((server) => new Promise((done) => server?.close(done))));
});

/** One request through node:http (it lets the test set Host and Origin as any client can). */
function send(headers: Record<string, string>, body: string | Buffer, method = 'POST', path = '/api/chat'): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { connection: 'close', ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('chat-ui refuses what its page would not send', () => {
  it('runs a turn for its own page: same Origin, loopback Host, JSON', async () => {
    const before = agentCalls;
    const answer = await send({ origin: origin(), 'content-type': 'application/json' }, runInput);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('RUN_ERROR'); // the agent was called, and answered 503
    expect(agentCalls).toBeGreaterThan(before);
  });

  it.each([
    ['a foreign Origin', { origin: 'http://evil.example', 'content-type': 'application/json' }, 403],
    ['an opaque Origin (null)', { origin: 'null', 'content-type': 'application/json' }, 403],
    ['a look-alike Origin', { origin: `http://127.0.0.1:${1}`, 'content-type': 'application/json' }, 403],
    ['a cross-origin text/plain form post', { origin: 'http://evil.example', 'content-type': 'text/plain' }, 403],
    ['a text/plain body without Origin (no-cors)', { 'content-type': 'text/plain;charset=UTF-8' }, 415],
    ['a form-encoded body', { 'content-type': 'application/x-www-form-urlencoded' }, 415],
    ['no Content-Type', {}, 415],
    ['an unknown Host (DNS rebinding)', { host: 'evil.example', origin: 'http://evil.example', 'content-type': 'application/json' }, 403],
    ['a Host with credentials', { host: 'localhost@evil.example', 'content-type': 'application/json' }, 403],
  ])('refuses %s with a 4xx, and the agent is not called', async (_name, headers, status) => {
    const before = agentCalls;
    const answer = await send(headers as Record<string, string>, runInput);
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.text).error.code).toBe(status);
    expect(agentCalls).toBe(before);
  });

  it('says which method the chat route takes', async () => {
    const answer = await new Promise<{ status: number; allow: string | undefined }>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/api/chat', method: 'GET', agent: false }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, allow: res.headers.allow });
      })
        .on('error', reject)
        .end();
    });
    expect(answer).toEqual({ status: 405, allow: 'POST' });
  });

  it.each([
    ['a Content-Length body', (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`],
    ['a chunked body', (body: string) => `Transfer-Encoding: chunked\r\n\r\n${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`],
  ])('answers 413 to %s over the limit, then the next request on the same connection', async (_name, framed) => {
    const big = JSON.stringify({ pad: 'x'.repeat(limit * 64) });
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const answered = (count: number) =>
      new Promise<void>((done, fail) => {
        const check = (): void => {
          if ([...received.matchAll(/^HTTP\/1\.1 \d{3}[\s\S]*?\r\n\r\n[\s\S]*?\}/gm)].length >= count) done();
        };
        socket.on('data', (chunk: Buffer) => {
          received += chunk.toString('latin1');
          check();
        });
        socket.on('error', fail);
        socket.on('close', () => fail(new Error(`the connection closed; got: ${received.slice(0, 300)}`)));
        setTimeout(() => fail(new Error(`no answer ${count}; got: ${received.slice(0, 300)}`)), 5000).unref();
      });
    const head = `POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n`;
    // The client sends all of its body, reads the 413, then asks again on the same connection.
    const first = answered(1);
    socket.write(head + framed(big));
    await first;
    socket.removeAllListeners();
    const second = answered(2);
    socket.write(`GET /nothing HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    await second;
    socket.destroy();
    const statuses = [...received.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((match) => Number(match[1]));
    expect(statuses).toEqual([413, 404]);
  });

  it('a fixed-seed fuzz of malformed requests: never a 5xx, never a raw control character, never the agent', async () => {
    const hostile = fc.string({
      unit: fc.oneof(
        fc.constantFrom('\u001b', '\r', '\n', '\u0000', '\u007f', '\u0085', '\u202e', '\u2066', '"', '\\', '{', '['),
        fc.integer({ min: 0x20, max: 0x2fff }).map((code) => String.fromCodePoint(code)),
      ),
      maxLength: 40,
    });
    const body = fc.oneof(
      hostile,
      fc.json(),
      hostile.map((text) => JSON.stringify({ threadId: text, runId: text, messages: [{ id: text, role: 'user', content: 42 }] })),
      hostile.map((text) =>
        JSON.stringify({
          threadId: 't',
          runId: 'r',
          state: {},
          messages: [{ id: 'm', role: text, content: text }],
          tools: [],
          context: [],
          forwardedProps: {},
        }),
      ),
      fc.constant('{"a":'.repeat(3000)),
    );
    const headers = fc.record({
      'content-type': fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8', 'multipart/form-data; boundary=x'),
      origin: fc.constantFrom(undefined, 'http://evil.example', 'null', `http://127.0.0.1:${port}`),
    });
    await fc.assert(
      fc.asyncProperty(body, headers, async (text, given) => {
        const before = agentCalls;
        const sent = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as Record<string, string>;
        const answer = await send(sent, text);
        expect(answer.status, text).toBeLessThan(500);
        expect(answer.text).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
        // Only a well-formed run from its own page may reach the agent.
        if (answer.status !== 200) expect(agentCalls).toBe(before);
      }),
      { seed: 44, numRuns: 150 },
    );
  });
});
